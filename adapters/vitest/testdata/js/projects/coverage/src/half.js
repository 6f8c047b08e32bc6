export const covered = () => 1

export const uncovered = () => {
  return 2
}
