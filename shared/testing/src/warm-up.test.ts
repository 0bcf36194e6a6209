import { describe, expect, it } from 'vitest';
import { stoppedClimbing } from './warm-up.ts';

describe('stoppedClimbing', () => {
  it('goes on while the rate climbs, even where two windows in a row agree', () => {
    expect(stoppedClimbing([147, 152])).toBe(false);
    expect(stoppedClimbing([112, 134, 163, 171, 178, 193])).toBe(false);
    expect(stoppedClimbing([112, 134, 163, 171, 178, 193, 200, 210, 224])).toBe(false);
  });

  it('stops once the last windows are no faster on average than the ones before', () => {
    expect(stoppedClimbing([112, 134, 163, 171, 178, 193, 200, 210, 224, 213, 230, 196])).toBe(true);
    expect(stoppedClimbing([300, 290, 310, 295, 305, 300])).toBe(true);
    expect(stoppedClimbing([300, 290, 310, 295, 305, 300], { climb: -0.05 })).toBe(false);
  });

  it('takes the span and the climb it is given', () => {
    expect(stoppedClimbing([100, 100, 104, 104], { span: 2, climb: 0.05 })).toBe(true);
    expect(stoppedClimbing([100, 100, 106, 106], { span: 2, climb: 0.05 })).toBe(false);
  });
});
