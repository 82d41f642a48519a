import { request, withSignal } from './client';
import type {
  Calendar,
  ChangeClass,
  ChangeWindow,
  IcsImportAnswer,
  IcsImportInput,
  Template,
  TemplateEdited,
  TemplateInput,
  TemplatePatch,
  WindowInput,
} from './governance-types';
import type { Change, ChangeStatusAnswer } from './types';

// Governance: templates (owners and admins draft; a different owner or approver certifies),
// windows and the calendar, and a change's class. Every refusal is the server's, with its field.

const templatePath = (id: string, suffix = ''): string => `/api/change-templates/${encodeURIComponent(id)}${suffix}`;
const windowPath = (id: string): string => `/api/change-windows/${encodeURIComponent(id)}`;
const changePath = (id: string, suffix: string): string => `/api/changes/${encodeURIComponent(id)}${suffix}`;

export const governanceApi = {
  listTemplates: (signal?: AbortSignal): Promise<{ items: Template[] }> =>
    request<{ items: Template[] }>('GET', '/api/change-templates', withSignal(signal)),
  createTemplate: (body: TemplateInput): Promise<Template> => request<Template>('POST', '/api/change-templates', { body }),
  /** A new version, no longer certified: `dropped` counts the changes it made standard that fell back. */
  editTemplate: (id: string, body: TemplatePatch): Promise<TemplateEdited> => request<TemplateEdited>('PUT', templatePath(id), { body }),
  /** 403 for its author, and for anyone who is neither an owner nor a designated approver. */
  certifyTemplate: (id: string): Promise<Template> => request<Template>('POST', templatePath(id, '/certify'), { body: {} }),
  withdrawTemplate: (id: string, reason: string): Promise<TemplateEdited> =>
    request<TemplateEdited>('POST', templatePath(id, '/withdraw'), { body: { reason } }),

  listWindows: (signal?: AbortSignal): Promise<{ items: ChangeWindow[] }> =>
    request<{ items: ChangeWindow[] }>('GET', '/api/change-windows', withSignal(signal)),
  createWindow: (body: WindowInput): Promise<ChangeWindow> => request<ChangeWindow>('POST', '/api/change-windows', { body }),
  deleteWindow: (id: string): Promise<void> => request<undefined>('DELETE', windowPath(id)),
  importWindows: (body: IcsImportInput): Promise<IcsImportAnswer> => request<IcsImportAnswer>('POST', '/api/change-windows/import', { body }),
  /** month: YYYY-MM (UTC). */
  calendar: (month: string, signal?: AbortSignal): Promise<Calendar> =>
    request<Calendar>('GET', `/api/change-calendar?month=${encodeURIComponent(month)}`, withSignal(signal)),

  /** Designated approvers, signed in, with a note of at least 5 characters; collected approvals are voided. */
  reclassify: (id: string, changeClass: ChangeClass, note: string): Promise<{ change: Change }> =>
    request<{ change: Change }>('POST', changePath(id, '/class'), { body: { changeClass, note } }),
  /** The compact status: the approval's tier and policy in words. */
  changeStatus: (id: string, signal?: AbortSignal): Promise<ChangeStatusAnswer> =>
    request<ChangeStatusAnswer>('GET', changePath(id, '/status'), withSignal(signal)),
};
