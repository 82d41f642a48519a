import type { Completeness, PrestateStatus } from '../api/rollback-types';
import { completenessLabels, prestateLabels } from '../lib/rollback-format';
import { Mark } from './rollback-badges';
import './capture-marks.css';

// How good a before-state capture is as evidence, as three marks: complete, existed before,
// restorable. A change's capture (capture-item.tsx) and a settings write's (settings-capture-block.tsx).
export function CaptureMarks({ completeness, prestateStatus, restorable, restorableTitle }: {
  completeness: Completeness; prestateStatus: PrestateStatus; restorable: boolean; restorableTitle?: string;
}) {
  return (
    <div className="capture-marks">
      <Mark tone={completeness === 'complete' ? 'ok' : completeness === 'partial' ? 'warn' : 'neutral'} title={completenessLabels[completeness].hint} testId="capture-completeness" state={completeness}>
        {completenessLabels[completeness].label}
      </Mark>
      <Mark tone={prestateStatus === 'present' ? 'neutral' : 'warn'} testId="capture-prestate" state={prestateStatus}>
        {prestateLabels[prestateStatus]}
      </Mark>
      <Mark tone={restorable ? 'ok' : 'warn'} title={restorableTitle} testId="capture-restorable" state={String(restorable)}>
        {restorable ? 'restorable' : 'not restorable'}
      </Mark>
    </div>
  );
}
