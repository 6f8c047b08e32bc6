// One file at a time, in order: --bail 1 stops the run at a.test.js's
// failure, before b.test.js and the rest of a.test.js run.
export default { test: { include: ['test/**/*.test.js'], fileParallelism: false, sequence: { shuffle: false } } }
