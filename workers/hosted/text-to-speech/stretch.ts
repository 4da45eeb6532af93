/**
 * A speed for audio whose model has none (Deepgram Aura on Workers AI, decision 060): WSOLA,
 * waveform-similarity overlap-add. The samples are cut into overlapping 40 ms frames, taken from
 * the input every `speed` × 20 ms and laid down in the output every 20 ms under a Hann window
 * (two such windows half a frame apart sum to exactly 1). Each frame is taken a few
 * milliseconds early or late, wherever its waveform best continues the frame before it, so
 * the pitch periods line up: the pace changes and the pitch does not, where resampling would
 * change both.
 *
 * Only 16-bit PCM (Aura's linear16, answered as wav or pcm): mp3, Ogg Opus and FLAC would
 * need decoding and re-encoding, which nothing here does.
 *
 * Cost: the search compares every 8th sample of the overlap at every 4th offset, then the four
 * offsets beside the best: about 2 600 multiplications a 20 ms hop.
 */

/** The output's length in samples for `length` input samples at `speed`. */
export function stretchedLength(length: number, speed: number): number {
  return Math.round(length / speed);
}

/**
 * `samples` spoken `speed` times as fast (0.25–4), pitch kept: `stretchedLength(…)` samples,
 * written into `out` when given (so a caller can place them after a header it allocates
 * with them). Speed 1 answers the samples as they are.
 */
export function timeStretch(
  samples: Int16Array,
  speed: number,
  sampleRate: number,
  out: Int16Array = new Int16Array(stretchedLength(samples.length, speed)),
): Int16Array {
  if (speed === 1) {
    out.set(samples.subarray(0, out.length));
    return out;
  }
  const length = samples.length;
  const total = out.length;
  if (length === 0 || total === 0) return out;
  const hop = Math.max(8, Math.round(sampleRate * 0.02));
  const frame = hop * 2;
  // Half the longest pitch period of a low voice (~70 Hz), so some offset always lines periods up.
  const tolerance = Math.round(sampleRate * 0.007);
  const window = new Float32Array(frame);
  for (let i = 0; i < frame; i++) window[i] = 0.5 - 0.5 * Math.cos((2 * Math.PI * i) / frame);
  const at = (index: number) => (index < length ? samples[index]! : 0);
  const lastStart = Math.max(0, length - frame);

  // How well the frame starting at `candidate` continues the one at `natural` over the half
  // they overlap: a dot product of every 8th sample.
  const similarity = (candidate: number, natural: number): number => {
    let sum = 0;
    if (candidate + hop <= length && natural + hop <= length) {
      for (let i = 0; i < hop; i += 8) sum += samples[candidate + i]! * samples[natural + i]!;
    } else {
      for (let i = 0; i < hop; i += 8) sum += at(candidate + i) * at(natural + i);
    }
    return sum;
  };

  // The second half of the previous frame, windowed, waiting for the next frame's first half.
  const tail = new Float32Array(hop);
  let previous = 0;
  for (let k = 0; k * hop < total; k++) {
    let start = 0;
    if (k > 0) {
      const nominal = Math.round(k * hop * speed);
      const natural = previous + hop;
      const low = Math.max(0, Math.min(lastStart, nominal - tolerance));
      const high = Math.max(low, Math.min(lastStart, nominal + tolerance));
      let best = -Infinity;
      for (let candidate = low; candidate <= high; candidate += 4) {
        const score = similarity(candidate, natural);
        if (score > best) {
          best = score;
          start = candidate;
        }
      }
      const coarse = start;
      for (let candidate = coarse - 2; candidate <= coarse + 2; candidate++) {
        if (candidate === coarse || candidate < low || candidate > high) continue;
        const score = similarity(candidate, natural);
        if (score > best) {
          best = score;
          start = candidate;
        }
      }
    }
    const base = k * hop;
    for (let i = 0; i < hop && base + i < total; i++) {
      // The first frame is not faded in: nothing came before it.
      const value = k === 0 ? at(start + i) : tail[i]! + window[i]! * at(start + i);
      out[base + i] = value > 32_767 ? 32_767 : value < -32_768 ? -32_768 : Math.round(value);
    }
    for (let i = 0; i < hop; i++) tail[i] = window[hop + i]! * at(start + hop + i);
    previous = start;
  }
  return out;
}
