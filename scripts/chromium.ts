// The one description of the browser we drive (e2e, icons, benchmarks): Debian's Chromium,
// never a downloaded one, with the flags that work on this kind of machine.
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'

export const chromiumLaunchOptions = {
  executablePath: CHROMIUM_PATH,
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    // Headless Chromium 156 builds the address bar's WebUI popup for every new tab: a renderer
    // of its own that takes a whole core for about two seconds, with nothing ever shown.
    '--disable-features=WebUIOmniboxPopup,WebUIOmniboxAimPopup',
  ],
}
