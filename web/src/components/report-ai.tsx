import type { AiAssessment } from '../api/report-types';
import { ImpactChip } from './change-badges';

// The AI assessment beside the verdict: its tier, confidence, summary, tagged findings and
// recommendations, or why there is none. It never changes the verdict, so it is said apart (the
// card above says "Rules … · AI …" when the two disagree).
export function ReportAi({ ai }: { ai: AiAssessment | null }) {
  if (ai === null || ai.status === 'off') {
    return (
      <div className="report-ai" data-testid="report-ai" data-status="off">
        <h3>AI assessment</h3>
        <p className="muted small" data-testid="report-ai-message">AI assessment of change reports is switched off for this organisation.</p>
      </div>
    );
  }
  if (ai.status === 'no_provider') {
    return (
      <div className="report-ai" data-testid="report-ai" data-status="no_provider">
        <h3>AI assessment</h3>
        <p className="muted small" data-testid="report-ai-message">No AI provider is assigned to change assessment.</p>
      </div>
    );
  }
  if (ai.status === 'unavailable') {
    return (
      <div className="report-ai" data-testid="report-ai" data-status="unavailable">
        <h3>AI assessment</h3>
        <p className="muted small" data-testid="report-ai-message">AI assessment unavailable ({ai.reason})</p>
      </div>
    );
  }
  return (
    <div className="report-ai" data-testid="report-ai" data-status="done">
      <h3>
        AI assessment <ImpactChip impact={ai.tier} testId="report-ai-tier" />
        <span className="muted small"> confidence {Math.round(ai.confidence * 100)} % · {ai.provider.model}</span>
      </h3>
      <p className="small" data-testid="report-ai-summary">{ai.summary}</p>
      {ai.findings.length > 0 && (
        <ul className="report-findings small" data-testid="report-ai-findings">
          {ai.findings.map((f, i) => (
            <li key={`${String(i)}-${f.tag}`} data-testid="report-ai-finding" data-tag={f.tag}>
              <span className={`finding-tag finding-${f.tag.replace(' ', '-')}`}>{f.tag}</span> {f.text}
            </li>
          ))}
        </ul>
      )}
      {ai.recommendations.length > 0 && (
        <>
          <p className="muted small report-recommend-head">Recommendations</p>
          <ul className="small" data-testid="report-ai-recommendations">
            {ai.recommendations.map((r, i) => (
              <li key={String(i)}>{r}</li>
            ))}
          </ul>
        </>
      )}
    </div>
  );
}
