// PostHog Cloud splits one region over three hosts (ingestion, static assets, the app); a
// self-hosted PostHog serves all three from POSTHOG_HOST itself.
const CLOUD = /^(us|eu)\.i\.posthog\.com$/

/** Scripts and remote config: PostHog Cloud serves them from its assets host. */
export function assetsHost(posthogHost: string): string {
  const url = new URL(posthogHost)
  const region = CLOUD.exec(url.hostname)?.[1]
  if (region) url.hostname = `${region}-assets.i.posthog.com`
  return url.toString()
}

/** PostHog's web app, for the links posthog-js builds (ui_host). */
export function uiHost(posthogHost: string): string {
  const url = new URL(posthogHost)
  const region = CLOUD.exec(url.hostname)?.[1]
  return region ? `https://${region}.posthog.com` : url.origin
}

/** Paths posthog-js loads from the assets host rather than the ingestion host. */
export function isAssetPath(path: string): boolean {
  return path.startsWith('/static/') || path.startsWith('/array/')
}
