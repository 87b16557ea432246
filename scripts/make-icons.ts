// Renders the app icons under public/icons/ from the logo (public/favicon.svg) in Chromium, the
// one image tool we can count on. Run it after changing the logo and commit the PNGs:
//   npx tsx scripts/make-icons.ts
import { chromium } from '@playwright/test'
import { mkdirSync, readFileSync } from 'node:fs'
import { chromiumLaunchOptions } from './chromium.ts'

const PUBLIC = new URL('../public/', import.meta.url)
const OUT = new URL('icons/', PUBLIC)

const logo = readFileSync(new URL('favicon.svg', PUBLIC), 'utf8').trim()
const tile = /<rect[^>]*fill="([^"]+)"[^>]*\/>/.exec(logo)
if (!tile?.[1]) throw new Error('favicon.svg has no background <rect> to reuse')
const tileColor = tile[1]
const mark = logo.replace(tile[0], '').replace(/^<svg[^>]*>|<\/svg>$/g, '')

// Full-bleed variant: a launcher crops maskable icons to any shape inside the central circle of
// 80% diameter, and iOS rounds apple-touch-icon itself and fills transparency with black. The
// mark, 46 x 26 units of the 64-unit tile, is scaled to 75%, well inside that circle.
const fullBleed = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64">
  <rect width="64" height="64" fill="${tileColor}"/>
  <g transform="translate(32 32) scale(0.75) translate(-32 -32)">${mark}</g>
</svg>`

const icons = [
  { file: 'icon-192.png', size: 192, svg: logo },
  { file: 'icon-512.png', size: 512, svg: logo },
  { file: 'icon-maskable-512.png', size: 512, svg: fullBleed },
  { file: 'apple-touch-icon.png', size: 180, svg: fullBleed },
]

mkdirSync(OUT, { recursive: true })
const browser = await chromium.launch(chromiumLaunchOptions)
try {
  const page = await browser.newPage({ deviceScaleFactor: 1 })
  for (const { file, size, svg } of icons) {
    await page.setViewportSize({ width: size, height: size })
    const src = `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`
    // setContent waits for the load event, which waits for the image.
    await page.setContent(
      `<body style="margin:0"><img src="${src}" width="${size}" height="${size}" style="display:block"></body>`,
    )
    if (!(await page.evaluate('document.images[0].naturalWidth > 0')))
      throw new Error(`${file}: Chromium could not draw the SVG`)
    await page.screenshot({
      path: new URL(file, OUT).pathname,
      omitBackground: true,
    })
    console.log(`public/icons/${file}: ${size} x ${size}`)
  }
} finally {
  await browser.close()
}
