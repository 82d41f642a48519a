import { request, withSignal } from './client';
import type { DryRun, ItsmTicket, MintedItsmToken, UnmanagedSettings, UnmanagedSettingsPatch } from './unmanaged-types';

// Settings → Unmanaged changes: the reference rule and what vouches for a write, the ITSM webhook
// token (answered once), its dry run over the last 7 days and the change tickets received.

export const unmanagedApi = {
  settings: (signal?: AbortSignal): Promise<UnmanagedSettings> =>
    request<UnmanagedSettings>('GET', '/api/unmanaged-settings', withSignal(signal)),
  updateSettings: (patch: UnmanagedSettingsPatch): Promise<UnmanagedSettings> =>
    request<UnmanagedSettings>('PUT', '/api/unmanaged-settings', { body: patch }),
  /** The unsaved form judged over the last 7 days' writes (the rule taken as on); writes nothing. */
  dryRun: (draft: UnmanagedSettingsPatch): Promise<DryRun> =>
    request<DryRun>('POST', '/api/unmanaged-settings/dry-run', { body: draft }),
  mintItsmToken: (orgId: string): Promise<MintedItsmToken> =>
    request<MintedItsmToken>('POST', `/api/organizations/${encodeURIComponent(orgId)}/itsm-webhook-token`, { body: {} }),
  tickets: (signal?: AbortSignal): Promise<{ tickets: ItsmTicket[] }> =>
    request<{ tickets: ItsmTicket[] }>('GET', '/api/itsm/tickets', withSignal(signal)),
};
