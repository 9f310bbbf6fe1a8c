// HTTP Retry-After (RFC 9110 §10.2.3): delay-seconds or an HTTP-date, as the wait in ms from
// `now`; undefined when absent or unreadable. A date in the past is no wait.

export function retryAfterMs(value: string | null | undefined, now: Date): number | undefined {
  if (value === null || value === undefined) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  // Only the date forms HTTP allows, which all name a weekday or month in letters.
  if (!/[a-z]/i.test(text)) return undefined;
  const at = Date.parse(text);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - now.getTime());
}
