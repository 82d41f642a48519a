import { request, withSignal } from './client';
import type { Impact, ReportAnswer } from './report-types';

// The evidence routes: Settings → Evidence (sources, settings, the AI provider) and a change's
// report versions. Shapes as the brief of issue #14 gives them until the routes' OpenAPI lands in
// schema.d.ts; answers that carry secrets only ever say whether one is stored (hasSecret, hasKey).

export type EvidenceSourceKind = 'prometheus' | 'loki' | 'elasticsearch' | 'otlp';
export const evidenceSourceKinds = ['prometheus', 'loki', 'elasticsearch', 'otlp'] as const satisfies readonly EvidenceSourceKind[];
export type SourceAuthKind = 'none' | 'bearer' | 'basic';
export const sourceAuthKinds = ['none', 'bearer', 'basic'] as const satisfies readonly SourceAuthKind[];

export type EvidenceSource = {
  id: string;
  kind: EvidenceSourceKind;
  name: string;
  url: string | null;
  enabled: boolean;
  authKind: SourceAuthKind;
  /** A hint of the credentials (a user name, a token's last characters), never the secret. */
  authHint: string | null;
  hasSecret: boolean;
  config: Record<string, unknown>;
};
export type SourceAuthInput = { kind: SourceAuthKind; token?: string; username?: string; password?: string };
export type EvidenceSourceInput = {
  kind?: EvidenceSourceKind;
  name?: string;
  url?: string | null;
  enabled?: boolean;
  auth?: SourceAuthInput;
  config?: Record<string, unknown>;
};
export type SourceTest = { ok: boolean; version?: string | null; message: string };

export type Thresholds = {
  errorRatioPoints: number;
  errorRatioFactor: number;
  latencyIncrease: number;
  latencyFloorMs: number;
  rateDrop: number;
  rateFloor: number;
  downMinutes: number;
  flappingEntries: number;
};
export type RedPreset = 'otel' | 'classic';
export type RedQueries = { rate: string; errorRatio: string; p95: string };
/** The templates collection runs: a preset's, or the organisation's own. */
export type RedTemplates = { name: RedPreset | 'custom'; serviceLabel: string; queries: RedQueries };
/** What an organisation saves: a preset, its own queries, or null (the default preset). */
export type StoredRedTemplates = { preset: RedPreset } | ({ serviceLabel: string } & RedQueries);
export type EvidenceSettings = {
  thresholds: Thresholds;
  thresholdsAreDefault: boolean;
  defaultThresholds: Thresholds;
  /** The templates collection runs, what is saved (null: the default preset), and both presets' queries. */
  redTemplates: RedTemplates;
  redTemplatesStored: StoredRedTemplates | null;
  presets: Record<RedPreset, RedTemplates>;
  aiEnabled: boolean;
  updatedAt: string | null;
};
export type EvidenceSettingsPatch = { thresholds?: Partial<Thresholds> | null; redTemplates?: StoredRedTemplates | null; aiEnabled?: boolean };

export type AiProviderKind = 'openai' | 'anthropic';
export const aiProviderKinds = ['openai', 'anthropic'] as const satisfies readonly AiProviderKind[];
export type AiProvider = { kind: AiProviderKind; url: string; endpoint: string; model: string; hasKey: boolean };
export type AiProviderInput = { kind: AiProviderKind; url?: string | null; model: string; key?: string | null };
export type AiProviderTest = { ok: boolean; model: string | null; durationMs: number | null; problem: string | null };

const sourcePath = (id: string, suffix = ''): string => `/api/evidence-sources/${encodeURIComponent(id)}${suffix}`;
const reportPath = (id: string, form: string, version?: number): string =>
  `/api/changes/${encodeURIComponent(id)}/report.${form}${version === undefined ? '' : `?version=${String(version)}`}`;

export const evidenceApi = {
  listSources: (signal?: AbortSignal): Promise<{ sources: EvidenceSource[] }> =>
    request<{ sources: EvidenceSource[] }>('GET', '/api/evidence-sources', withSignal(signal)),
  createSource: (body: EvidenceSourceInput): Promise<{ source: EvidenceSource }> =>
    request<{ source: EvidenceSource }>('POST', '/api/evidence-sources', { body }),
  updateSource: (id: string, body: EvidenceSourceInput): Promise<{ source: EvidenceSource }> =>
    request<{ source: EvidenceSource }>('PUT', sourcePath(id), { body }),
  removeSource: (id: string): Promise<void> => request<undefined>('DELETE', sourcePath(id)),
  testSource: (id: string): Promise<SourceTest> => request<SourceTest>('POST', sourcePath(id, '/test'), { body: {} }),

  settings: (signal?: AbortSignal): Promise<EvidenceSettings> =>
    request<EvidenceSettings>('GET', '/api/evidence-settings', withSignal(signal)),
  updateSettings: (patch: EvidenceSettingsPatch): Promise<EvidenceSettings> =>
    request<EvidenceSettings>('PUT', '/api/evidence-settings', { body: patch }),

  aiProvider: (signal?: AbortSignal): Promise<{ provider: AiProvider | null }> =>
    request<{ provider: AiProvider | null }>('GET', '/api/ai-provider', withSignal(signal)),
  saveAiProvider: (body: AiProviderInput): Promise<{ provider: AiProvider }> =>
    request<{ provider: AiProvider }>('PUT', '/api/ai-provider', { body }),
  removeAiProvider: (): Promise<void> => request<undefined>('DELETE', '/api/ai-provider'),
  testAiProvider: (): Promise<AiProviderTest> => request<AiProviderTest>('POST', '/api/ai-provider/test', { body: {} }),

  report: (changeId: string, version: number | undefined, signal?: AbortSignal): Promise<ReportAnswer> =>
    request<ReportAnswer>('GET', reportPath(changeId, 'json', version), withSignal(signal)),
};

/** Where a form of one report version downloads from (html opens, csv is an attachment). */
export function reportHref(changeId: string, form: 'html' | 'txt' | 'csv' | 'json', version: number): string {
  return reportPath(changeId, form, version);
}

export type { Impact };
