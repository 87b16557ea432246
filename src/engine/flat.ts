// V8 keeps a string built by concatenation as a tree of its pieces (a cons string per `+` or
// template part), and the tree lives as long as the string does. Strings a shape keeps for its
// whole life are copied flat once: at 10,000 shapes their pieces were some 100,000 objects for
// every old-generation collection to mark (bench:engine --shapes 10000, heap snapshot).

/** `text` as one flat string, none of its pieces kept. */
export function flat(text: string): string {
  return JSON.parse(JSON.stringify(text)) as string
}
