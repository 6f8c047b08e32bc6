// The tests a strobe run selects by name (a test to run, failures to run
// again), shared by strobe's setup file and reporter. strobe puts them in
// STROBE_VITEST_SELECT as JSON, [{file, name}]: name is a test's full name
// or a describe block's (" > "-joined), none for the whole file, file the
// test file's absolute path, when known. vitest's -t matches tests by their names joined by
// spaces, so it cannot tell the test "adds" from the block "adds" (whose
// tests are "adds …"), nor from the test "adds wrongly": strobe's -t lets
// all of them through, and these decide, by the tests' place in their
// files, which of them run.
import { realpathSync } from 'node:fs'

function load() {
  const raw = process.env.STROBE_VITEST_SELECT
  if (!raw) return null
  let list
  try {
    list = JSON.parse(raw)
  } catch {
    return null
  }
  if (!Array.isArray(list) || list.length === 0) return null
  return list.map((e) => {
    const files = []
    if (e.file) {
      files.push(e.file)
      try {
        const real = realpathSync(e.file)
        if (real !== e.file) files.push(real)
      } catch {
        // A file that is gone selects nothing.
      }
    }
    return { files, name: String(e.name || '') }
  })
}

// projectsEnv is set by the reporter when the run has several vitest
// projects (a test file may then run in more than one): every test's name
// in strobe's answer ends with its project's, " [NAME]", so that the
// copies are apart, and a failure's rerun selects its project.
export const projectsEnv = 'STROBE_VITEST_PROJECTS'

// tagged is a test's name in strobe's answer, its project's added when the
// run has several.
export function tagged(name, project) {
  return process.env[projectsEnv] && project ? `${name} [${project}]` : name
}

// numbered is the name of the next test of that full name in a file (seen
// counts the names, used holds those given): the name itself the first
// time, then "NAME #2", "NAME #3", past any name the file already gave (a
// test titled "NAME #2" of its own), so that no two tests share one. The
// reporter and the worker's setup file name them alike with it.
export function numbered(seen, used, full) {
  let n = (seen.get(full) || 0) + 1
  let name = n === 1 ? full : `${full} #${n}`
  while (used.has(name)) name = `${full} #${++n}`
  seen.set(full, n)
  used.add(name)
  return name
}

// selection is the run's, or null when it selects no test by name.
export const selection = load()

// selects tells whether the selection takes a test, by its file, its full
// name (" > "-joined) and its name in strobe's answer ("NAME #2" for the
// second test of a name in its file): the test named, or a test of the
// describe block named, in the file named when one is.
export function selects(file, fullName, answerName) {
  return selection.some(
    (e) =>
      (e.files.length === 0 || e.files.includes(file)) &&
      (e.name === '' || fullName === e.name || answerName === e.name || fullName.startsWith(e.name + ' > ')),
  )
}
