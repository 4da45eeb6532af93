/**
 * The time-stretch that gives Aura's linear16 audio a speed: the duration scales by 1/speed and
 * the pitch stays. Pitch is measured two independent ways on the stretched signal (the lag of
 * its autocorrelation's first peak, and its zero-crossing rate) against the original's.
 */
import { describe, expect, it } from "vitest";
import { timeStretch } from "./stretch";

const RATE = 24_000;

/** A voiced-speech stand-in: a 150 Hz fundamental with two harmonics, swelling 4 times a second like syllables. */
function voiced(seconds: number, fundamental = 150): Int16Array {
  const out = new Int16Array(Math.round(seconds * RATE));
  for (let i = 0; i < out.length; i++) {
    const t = i / RATE;
    const envelope = 0.55 + 0.45 * Math.sin(2 * Math.PI * 4 * t);
    const wave =
      Math.sin(2 * Math.PI * fundamental * t) +
      0.5 * Math.sin(2 * Math.PI * 2 * fundamental * t + 0.3) +
      0.25 * Math.sin(2 * Math.PI * 3 * fundamental * t + 1.1);
    out[i] = Math.round(9000 * envelope * wave);
  }
  return out;
}

/** The fundamental (Hz) from the autocorrelation of the middle half second: its best lag in 2.5–12.5 ms. */
function autocorrelationPitch(samples: Int16Array): number {
  const start = Math.floor(samples.length / 2 - RATE / 4);
  const length = RATE / 2;
  let bestLag = 0;
  let best = -Infinity;
  for (let lag = RATE / 400; lag <= RATE / 80; lag++) {
    let sum = 0;
    for (let i = start; i < start + length; i++) sum += samples[i]! * samples[i + lag]!;
    if (sum > best) [best, bestLag] = [sum, lag];
  }
  return RATE / bestLag;
}

/** Sign changes a second over the whole signal. */
function zeroCrossingRate(samples: Int16Array): number {
  let crossings = 0;
  for (let i = 1; i < samples.length; i++) if (samples[i - 1]! < 0 !== samples[i]! < 0) crossings += 1;
  return crossings / (samples.length / RATE);
}

describe("timeStretch", () => {
  const source = voiced(3);
  const pitch = autocorrelationPitch(source);
  const zcr = zeroCrossingRate(source);

  it("measures the source as built (the measures themselves are right)", () => {
    expect(pitch).toBeCloseTo(150, -1);
    expect(Math.abs(pitch - 150) / 150).toBeLessThan(0.02);
  });

  for (const speed of [0.25, 0.5, 0.8, 1.25, 2, 4]) {
    it(`at speed ${speed}: duration × 1/${speed} within 2 %, pitch unchanged within 5 %`, () => {
      const stretched = timeStretch(source, speed, RATE);
      const ratio = stretched.length / (source.length / speed);
      expect(Math.abs(ratio - 1)).toBeLessThan(0.02);
      expect(Math.abs(autocorrelationPitch(stretched) - pitch) / pitch).toBeLessThan(0.05);
      expect(Math.abs(zeroCrossingRate(stretched) - zcr) / zcr).toBeLessThan(0.05);
      // Not silence, not clipped: the loudness stays that of the source.
      const peak = (s: Int16Array) => s.reduce((max, v) => Math.max(max, Math.abs(v)), 0);
      expect(peak(stretched)).toBeGreaterThan(peak(source) * 0.7);
      expect(peak(stretched)).toBeLessThanOrEqual(32_767);
    });
  }

  it("changes the pace, not the pitch, of a lower voice too (a naive resample would move both)", () => {
    const low = voiced(2, 100);
    const fast = timeStretch(low, 1.5, RATE);
    expect(Math.abs(autocorrelationPitch(fast) - 100) / 100).toBeLessThan(0.05);
  });

  it("answers the samples unchanged at speed 1, and an empty input empty", () => {
    expect(timeStretch(source, 1, RATE)).toEqual(source);
    expect(timeStretch(new Int16Array(0), 2, RATE).length).toBe(0);
  });
});
