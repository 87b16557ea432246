// The shape requests each session has open, so ending a session ends them: a long-poll opened
// before logout must not deliver rows written after it.
export class SessionRequests {
  private open = new Map<string, Set<AbortController>>()

  /**
   * A signal for one request of a session: aborts when the request itself is aborted or the
   * session ends. Call `release()` once the request has its answer.
   */
  track(
    sessionId: string,
    requestSignal: AbortSignal,
  ): { signal: AbortSignal; release(): void } {
    const controller = new AbortController()
    let requests = this.open.get(sessionId)
    if (!requests) this.open.set(sessionId, (requests = new Set()))
    requests.add(controller)
    return {
      signal: AbortSignal.any([requestSignal, controller.signal]),
      release: () => {
        requests.delete(controller)
        if (requests.size === 0 && this.open.get(sessionId) === requests)
          this.open.delete(sessionId)
      },
    }
  }

  /** Aborts every open request of a session that has ended. */
  end(sessionId: string): void {
    const requests = this.open.get(sessionId)
    this.open.delete(sessionId)
    for (const controller of requests ?? []) controller.abort()
  }
}
