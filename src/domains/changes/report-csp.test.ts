import { describe, expect, it } from 'vitest';
import { reportCsp, reportCsvFilename } from './report-csp.js';

describe('reportCsp', () => {
  it("allows nothing but the document's own style blocks, by hash", () => {
    // sha256("b{c:d}") in base64, as `printf 'b{c:d}' | openssl dgst -sha256 -binary | base64` prints it.
    expect(reportCsp('<html><head><style>b{c:d}</style></head><body style="x"></body></html>')).toBe("default-src 'none'; style-src 'sha256-VWCtcqomXclmaq7LQ0DoJrdMZBu+xEuM64Ao+VyP0tg='");
    expect(reportCsp('<html><body><p>old report</p></body></html>')).toBe("default-src 'none'");
  });

  it('names the CSV after the change and the version', () => {
    expect(reportCsvFilename('CHG-1a2b3c4d', 2)).toBe('change-CHG-1a2b3c4d-v2.csv');
  });
});
