import { request, withSignal } from './client';
import type {
  ChangeList,
  ChangeSource,
  ChangeSourceInput,
  ChangeSourcePatch,
  ManualPull,
  ObservedAnswer,
  ObservedSettings,
  ObservedSettingsPatch,
  SourceTest,
  SourceWithSecret,
} from './observed-types';

// The one change list, observed changes, Settings → Change sources and the organisation's
// observed settings. A source's secret comes back once (create, rotate) and never again.

const sourcePath = (id: string, suffix = ''): string => `/api/change-sources/${encodeURIComponent(id)}${suffix}`;

export const observedApi = {
  /** GET /api/changes with the list's own query (see lib/change-list.ts recordListQuery). */
  listRecords: (query: string, signal?: AbortSignal): Promise<ChangeList> =>
    request<ChangeList>('GET', `/api/changes${query}`, withSignal(signal)),
  getObserved: (id: string, signal?: AbortSignal): Promise<ObservedAnswer> =>
    request<ObservedAnswer>('GET', `/api/observed-changes/${encodeURIComponent(id)}`, withSignal(signal)),

  listSources: (signal?: AbortSignal): Promise<{ sources: ChangeSource[] }> =>
    request<{ sources: ChangeSource[] }>('GET', '/api/change-sources', withSignal(signal)),
  createSource: (body: ChangeSourceInput): Promise<SourceWithSecret> =>
    request<SourceWithSecret>('POST', '/api/change-sources', { body }),
  updateSource: (id: string, body: ChangeSourcePatch): Promise<{ source: ChangeSource }> =>
    request<{ source: ChangeSource }>('PUT', sourcePath(id), { body }),
  removeSource: (id: string): Promise<void> => request<undefined>('DELETE', sourcePath(id)),
  testSource: (id: string): Promise<SourceTest> => request<SourceTest>('POST', sourcePath(id, '/test'), { body: {} }),
  rotateSecret: (id: string): Promise<SourceWithSecret> => request<SourceWithSecret>('POST', sourcePath(id, '/rotate-secret'), { body: {} }),
  pullSource: (id: string, minutes: number): Promise<ManualPull> =>
    request<ManualPull>('POST', sourcePath(id, '/pull'), { body: { minutes } }),

  settings: (signal?: AbortSignal): Promise<ObservedSettings> =>
    request<ObservedSettings>('GET', '/api/observed-settings', withSignal(signal)),
  updateSettings: (patch: ObservedSettingsPatch): Promise<ObservedSettings> =>
    request<ObservedSettings>('PUT', '/api/observed-settings', { body: patch }),
};
