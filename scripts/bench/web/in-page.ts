// Runs inside the page as an init script, before the app's own code: notes when a text node
// with an exact text first appears. A MutationObserver runs in the same task React commits
// the DOM in, so the time is the commit's, a frame before paint at most.

/** When a watched text appeared: since navigation start, and on the wall clock Node shares. */
export type Sighting = { sinceNavigationMs: number; epochMs: number }

type Probe = {
  /** Starts watching (a text already on the page counts as seen now). */
  watch(text: string): void
  /** The first sighting since watch(), or null after timeoutMs. */
  seen(text: string, timeoutMs: number): Promise<Sighting | null>
}

/** What the page holds; the global's name is spelled out in installProbe, which is serialized. */
export type ProbeWindow = { __sluiceBench: Probe }

// Scripts typecheck without the DOM library: these are the few browser types the probe uses.
type DomNode = {
  nodeType: number
  nodeValue: string | null
  childNodes: ArrayLike<DomNode>
}
type DomMutation = {
  type: string
  target: DomNode
  addedNodes: ArrayLike<DomNode>
}
type PageGlobals = {
  document: DomNode
  MutationObserver: new (callback: (records: DomMutation[]) => void) => {
    observe(
      target: DomNode,
      options: { childList: boolean; subtree: boolean; characterData: boolean },
    ): void
  }
}

/** Serialized into the page by Playwright: it may use nothing from this module's scope. */
export function installProbe(watchFirst: string[]): void {
  const page = globalThis as unknown as PageGlobals & Partial<ProbeWindow>
  const TEXT_NODE = 3
  const watched = new Set<string>(watchFirst)
  const seen = new Map<string, Sighting>()
  const waiters = new Map<string, Array<(s: Sighting) => void>>()
  const record = (text: string) => {
    if (!watched.has(text) || seen.has(text)) return
    const sighting = {
      sinceNavigationMs: performance.now(),
      epochMs: Date.now(),
    }
    seen.set(text, sighting)
    for (const resolve of waiters.get(text) ?? []) resolve(sighting)
    waiters.delete(text)
  }
  const scan = (root: DomNode) => {
    const stack = [root]
    for (let node = stack.pop(); node; node = stack.pop()) {
      if (node.nodeType === TEXT_NODE) record(node.nodeValue ?? '')
      else stack.push(...Array.from(node.childNodes))
    }
  }
  new page.MutationObserver((records) => {
    if (seen.size === watched.size) return
    for (const r of records)
      if (r.type === 'characterData') scan(r.target)
      else for (const added of Array.from(r.addedNodes)) scan(added)
  }).observe(page.document, {
    childList: true,
    subtree: true,
    characterData: true,
  })
  page.__sluiceBench = {
    watch(text) {
      watched.add(text)
      seen.delete(text)
      scan(page.document)
    },
    seen(text, timeoutMs) {
      const already = seen.get(text)
      if (already) return Promise.resolve(already)
      return new Promise((resolve) => {
        const timer = setTimeout(() => resolve(null), timeoutMs)
        const list = waiters.get(text) ?? []
        list.push((s) => {
          clearTimeout(timer)
          resolve(s)
        })
        waiters.set(text, list)
      })
    },
  }
}

// tsx compiles with esbuild's keepNames, which wraps named inner functions in a `__name(fn,
// 'name')` helper defined at the top of the module: the serialized probe would call it in the
// page, where it does not exist. This init script, added first, defines it there.
export const KEEP_NAMES_SHIM = 'globalThis.__name ??= (fn) => fn'
