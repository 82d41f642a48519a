import { request, withSignal } from './client';
import type { ReportAnswer } from './report-types';
import type {
  AiProvider,
  AiProviderInput,
  AiProviderTest,
  EvidenceSettings,
  EvidenceSettingsPatch,
  EvidenceSource,
  EvidenceSourceInput,
  EvidenceSourcePatch,
  SourceTest,
} from './types';

// The evidence routes: Settings → Evidence (sources, settings, the AI provider) and a change's
// report versions. Answers that carry secrets only ever say whether one is stored (hasSecret, hasKey).

const sourcePath = (id: string, suffix = ''): string => `/api/evidence-sources/${encodeURIComponent(id)}${suffix}`;
const reportPath = (id: string, form: string, version?: number): string =>
  `/api/changes/${encodeURIComponent(id)}/report.${form}${version === undefined ? '' : `?version=${String(version)}`}`;

export const evidenceApi = {
  listSources: (signal?: AbortSignal): Promise<{ sources: EvidenceSource[] }> =>
    request<{ sources: EvidenceSource[] }>('GET', '/api/evidence-sources', withSignal(signal)),
  createSource: (body: EvidenceSourceInput): Promise<{ source: EvidenceSource }> =>
    request<{ source: EvidenceSource }>('POST', '/api/evidence-sources', { body }),
  updateSource: (id: string, body: EvidenceSourcePatch): Promise<{ source: EvidenceSource }> =>
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

