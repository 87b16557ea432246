// Which addresses and names a readiness check may reach. Only public unicast is always fine;
// loopback and private ranges are fine when the setting allows them (a self-hosted Sluice);
// metadata services, link-local, multicast and reserved space are never a user's database.
import { isIPv4, isIPv6 } from 'node:net'

/** `public`: always allowed; `private`: allowed by the setting; `forbidden`: never. */
export type AddressClass = 'public' | 'private' | 'forbidden'

type Range = readonly [base: bigint, prefix: number, cls: AddressClass]

const v4 = (text: string): bigint =>
  text.split('.').reduce((n, part) => (n << 8n) | BigInt(Number(part)), 0n)

// Parses a valid IPv6 text (node's isIPv6 said so) into its 128-bit value.
function v6(text: string): bigint {
  let body = text
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(body)?.[1]
  if (dotted) {
    const n = v4(dotted)
    body = body.replace(
      dotted,
      `${(n >> 16n).toString(16)}:${(n & 0xffffn).toString(16)}`,
    )
  }
  const [head = '', tail] = body.split('::')
  const left = head ? head.split(':') : []
  const right = tail ? tail.split(':') : []
  const zeros = tail === undefined ? 0 : 8 - left.length - right.length
  const groups = [...left, ...Array<string>(zeros).fill('0'), ...right]
  return groups.reduce((n, g) => (n << 16n) | BigInt(parseInt(g, 16)), 0n)
}

const V4_RANGES: Range[] = [
  [v4('0.0.0.0'), 8, 'forbidden'], // "this network"
  [v4('10.0.0.0'), 8, 'private'],
  [v4('100.64.0.0'), 10, 'private'], // carrier-grade NAT
  [v4('127.0.0.0'), 8, 'private'], // loopback
  [v4('168.63.129.16'), 32, 'forbidden'], // Azure's host endpoint
  [v4('169.254.0.0'), 16, 'forbidden'], // link-local, cloud metadata
  [v4('172.16.0.0'), 12, 'private'],
  [v4('192.0.0.0'), 24, 'forbidden'], // IETF protocol assignments
  [v4('192.0.2.0'), 24, 'forbidden'], // documentation
  [v4('192.88.99.0'), 24, 'forbidden'], // 6to4 relay anycast
  [v4('192.168.0.0'), 16, 'private'],
  [v4('198.18.0.0'), 15, 'forbidden'], // benchmarking
  [v4('198.51.100.0'), 24, 'forbidden'], // documentation
  [v4('203.0.113.0'), 24, 'forbidden'], // documentation
  [v4('224.0.0.0'), 4, 'forbidden'], // multicast
  [v4('240.0.0.0'), 4, 'forbidden'], // reserved, broadcast
]

const V6_RANGES: Range[] = [
  [v6('fd00:ec2::254'), 128, 'forbidden'], // AWS metadata (inside ULA, so listed first)
  [v6('::1'), 128, 'private'], // loopback
  [v6('fc00::'), 7, 'private'], // unique local
  [v6('2001::'), 23, 'forbidden'], // IETF special purpose: Teredo, benchmarking, ORCHID
  [v6('2001:db8::'), 32, 'forbidden'], // documentation
  [v6('2002::'), 16, 'forbidden'], // 6to4: tunnels to an embedded IPv4
  [v6('3fff::'), 20, 'forbidden'], // documentation
  // Global unicast; everything outside it is forbidden below: ::, IPv4-compatible, NAT64
  // (64:ff9b::/96, 64:ff9b:1::/48), discard-only, link-local fe80::/10, multicast ff00::/8.
  [v6('2000::'), 3, 'public'],
]

function lookup(
  value: bigint,
  bits: number,
  ranges: Range[],
  fallback: AddressClass,
) {
  for (const [base, prefix, cls] of ranges) {
    const shift = BigInt(bits - prefix)
    if (value >> shift === base >> shift) return cls
  }
  return fallback
}

/** Classifies an IP address text; anything that is not an IP address is forbidden. */
export function classifyAddress(address: string): AddressClass {
  if (isIPv4(address)) return lookup(v4(address), 32, V4_RANGES, 'public')
  if (!isIPv6(address)) return 'forbidden'
  const value = v6(address)
  // IPv4-mapped (::ffff:a.b.c.d): the socket goes to the embedded IPv4 address.
  if (value >> 32n === 0xffffn) {
    const n = value & 0xffffffffn
    const dotted = [24n, 16n, 8n, 0n].map((s) => (n >> s) & 0xffn).join('.')
    return classifyAddress(dotted)
  }
  return lookup(value, 128, V6_RANGES, 'forbidden')
}

const METADATA_NAMES = new Set([
  'metadata',
  'metadata.google.internal',
  'instance-data', // AWS
  'instance-data.ec2.internal',
])

/** Classifies a host name by itself, before any lookup; `public` means "resolve and see". */
export function classifyName(name: string): AddressClass {
  const host = name.toLowerCase().replace(/\.$/, '')
  if (METADATA_NAMES.has(host)) return 'forbidden'
  if (host === 'localhost' || host.endsWith('.localhost')) return 'private'
  // Cloud-internal names (*.internal, host.docker.internal) point into the provider's network.
  if (host === 'internal' || host.endsWith('.internal')) return 'private'
  return 'public'
}
