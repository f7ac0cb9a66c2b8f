/**
 * Where the portal gets its trusted list (decision 032): a URL in production (AgID's list, fetched
 * again every TRUSTED_LIST_REFRESH_MINUTES, the last verified copy kept when a fetch fails), or a
 * file for development and tests. Every copy is verified against the configured list-operator
 * certificates before it is used; without a verified list no uploaded signature is accepted.
 */
import { readFile } from 'node:fs/promises';
import type { Env } from '../../../env.ts';
import { loadTrustedList, splitPemCertificates, type TrustedList } from './trusted-list.ts';

export interface TrustedListSource {
  /** The verified list in force, or null when none could be loaded and verified. */
  current(): Promise<TrustedList | null>;
}

export interface TrustedListConfig {
  url?: string | undefined;
  file?: string | undefined;
  /** PEM file with the list operator's signing certificates. */
  signerCertificatesFile?: string | undefined;
  refreshMs: number;
  now: () => Date;
  fetchTimeoutMs?: number;
  onError?: (error: unknown) => void;
}

export class ConfiguredTrustedList implements TrustedListSource {
  private list: TrustedList | null = null;
  private loadedAt = 0;
  private pending: Promise<void> | null = null;

  constructor(private readonly config: TrustedListConfig) {}

  get configured(): boolean {
    return Boolean((this.config.url || this.config.file) && this.config.signerCertificatesFile);
  }

  async current(): Promise<TrustedList | null> {
    if (!this.configured) return null;
    const stale = !this.list || this.config.now().getTime() - this.loadedAt >= this.config.refreshMs;
    if (stale) {
      this.pending ??= this.refresh().finally(() => {
        this.pending = null;
      });
      await this.pending;
    }
    return this.list;
  }

  private async refresh(): Promise<void> {
    try {
      const signers = splitPemCertificates(await readFile(this.config.signerCertificatesFile!, 'utf8'));
      const source = this.config.url ?? this.config.file!;
      const xml = this.config.url
        ? await this.fetchList(this.config.url)
        : await readFile(this.config.file!, 'utf8');
      const list = loadTrustedList(xml, signers, source);
      // Never go back to an older list than the one in force.
      if (!this.list || list.sequenceNumber >= this.list.sequenceNumber) this.list = list;
      this.loadedAt = this.config.now().getTime();
    } catch (error) {
      // The last verified list stays in force; retry at the next use after a short pause.
      this.loadedAt = this.list ? this.config.now().getTime() - this.config.refreshMs + 60_000 : 0;
      this.config.onError?.(error);
    }
  }

  private async fetchList(url: string): Promise<string> {
    const response = await fetch(url, { signal: AbortSignal.timeout(this.config.fetchTimeoutMs ?? 30_000) });
    if (!response.ok) throw new Error(`Trusted list fetch answered ${response.status}`);
    return response.text();
  }
}

export function trustedListFromEnv(
  env: Env,
  now: () => Date,
  onError?: (error: unknown) => void,
): ConfiguredTrustedList {
  return new ConfiguredTrustedList({
    url: env.TRUSTED_LIST_URL,
    file: env.TRUSTED_LIST_FILE,
    signerCertificatesFile: env.TRUSTED_LIST_SIGNER_CERTS,
    refreshMs: env.TRUSTED_LIST_REFRESH_MINUTES * 60_000,
    now,
    ...(onError ? { onError } : {}),
  });
}
