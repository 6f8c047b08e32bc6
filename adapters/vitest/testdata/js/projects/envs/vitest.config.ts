import { defineConfig } from 'vitest/config'

// Two projects run the same test file: one in node, one in a browser-like
// environment (happy-dom), which loads modules as vite serves them.
export default defineConfig({
  test: {
    projects: [
      { test: { name: 'node', include: ['test/**/*.test.ts'], environment: 'node' } },
      { test: { name: 'dom', include: ['test/**/*.test.ts'], environment: 'happy-dom' } },
    ],
  },
})
