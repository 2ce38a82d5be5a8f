/** Prints one benchmark figure as a JSON line: the contract every benchmark follows. */
export function report(name: string, value: number, unit: string, extra: Record<string, unknown> = {}): void {
  process.stdout.write(`${JSON.stringify({ name, value: Number(value.toFixed(3)), unit, ...extra })}\n`);
}

/** Peak resident set size of this process so far, in MB. */
export function peakRssMb(): number {
  return process.resourceUsage().maxRSS / 1024;
}
