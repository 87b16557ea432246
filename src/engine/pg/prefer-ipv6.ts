// ELECTRIC_DATABASE_USE_IPV6: connect to the database over IPv6 where its name has an IPv6
// address, over IPv4 where it has none, as Electric does. A HostPinner that refuses nothing:
// it only picks the address (pinned-socket.ts), so TLS still checks the name.
import { lookup } from 'node:dns/promises'
import { isIP } from 'node:net'
import type { HostPinner } from './pinned-socket.ts'

export const preferIpv6: HostPinner = async (host) => {
  if (isIP(host)) return host
  try {
    return (await lookup(host, { family: 6 })).address
  } catch {
    return (await lookup(host, { family: 4 })).address
  }
}
