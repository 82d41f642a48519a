import type { RegisteredChange } from '../api/types';

// What a registration answered beyond the change — its class, tier and policy, the windows at
// its planned start — kept for the change page the form opens next (one page load: the answer
// is not stored anywhere else, and a reload shows the change's own fields instead).
const answers = new Map<string, Pick<RegisteredChange, 'governance' | 'windows'>>();

export function rememberRegistration(answer: RegisteredChange): void {
  answers.set(answer.change.id, { governance: answer.governance, windows: answer.windows });
}

export function registrationOf(changeId: string): Pick<RegisteredChange, 'governance' | 'windows'> | null {
  return answers.get(changeId) ?? null;
}
