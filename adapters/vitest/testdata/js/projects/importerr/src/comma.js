// A missing comma: the parser says where.
export function bump(v kind) {
  return v + kind
}
