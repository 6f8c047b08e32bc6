export default { test: { retry: 1 } }
