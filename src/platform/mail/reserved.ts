/** Top-level domains reserved for tests and documentation (RFC 2606, RFC 6761). */
export const RESERVED_TLDS: readonly string[] = ['test', 'example', 'invalid', 'localhost'];
/** Second-level domains reserved for documentation (RFC 2606), with their subdomains. */
export const RESERVED_DOMAINS: readonly string[] = ['example.com', 'example.org', 'example.net'];

/**
 * Whether an address must never be handed to a mail server: a reserved test or documentation
 * domain — or no domain at all, which no server could deliver to either.
 */
export function isReservedAddress(address: string): boolean {
  const at = address.lastIndexOf('@');
  const domain = address.slice(at + 1).trim().toLowerCase().replace(/\.+$/, '');
  if (at <= 0 || !domain) return true;
  if (RESERVED_TLDS.includes(domain.slice(domain.lastIndexOf('.') + 1))) return true;
  return RESERVED_DOMAINS.some((d) => domain === d || domain.endsWith(`.${d}`));
}
