/**
 * Debian's chromium driven by playwright-core (which downloads no browser of its own), for the
 * tests that look at the audit pages as an annotator would. The switches keep the browser from
 * reaching the network on its own, so every request it makes is one the page asked for.
 */
import { chromium, type Browser } from 'playwright-core';

export const CHROMIUM_PATH = '/usr/bin/chromium';

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}
