import { request, withSignal } from './client';
import type { CaseAnswer, CaseDetail, CaseKind, CaseStatus, CaseSummary } from './case-types';

// Cases of unmanaged changes: everyone reads them; approvers answer (the server says who may).

const casePath = (id: string, suffix = ''): string => `/api/cases/${encodeURIComponent(id)}${suffix}`;

export const casesApi = {
  list: (filter: { statuses?: readonly CaseStatus[]; kinds?: readonly CaseKind[] }, signal?: AbortSignal): Promise<{ cases: CaseSummary[] }> => {
    const params = new URLSearchParams();
    if (filter.statuses !== undefined && filter.statuses.length > 0) params.set('status', filter.statuses.join(','));
    if (filter.kinds !== undefined && filter.kinds.length > 0) params.set('kind', filter.kinds.join(','));
    const query = params.toString();
    return request<{ cases: CaseSummary[] }>('GET', `/api/cases${query === '' ? '' : `?${query}`}`, withSignal(signal));
  },
  get: (id: string, signal?: AbortSignal): Promise<{ case: CaseDetail }> => request<{ case: CaseDetail }>('GET', casePath(id), withSignal(signal)),
  /** An approver's answer: 400 names the note, 403 says who may, 409 says why not now. */
  answer: (id: string, answer: CaseAnswer, note: string): Promise<{ case: CaseDetail }> =>
    request<{ case: CaseDetail }>('POST', casePath(id, `/${answer}`), { body: note.trim() === '' ? {} : { note } }),
};
