/**
 * The classic cut-out's refusal limits (decision 062), apart from the engine so the API's docs
 * (workers/hosted/removebg/index.ts, in the main Worker) can quote them without loading it.
 */

/** Above this noise (ΔE) the border is a texture or a scene, not a backdrop. */
export const MAX_BACKDROP_NOISE = 10;
/** Below this share of the border on the backdrop, the subject fills the frame or the border is mixed. */
export const MIN_BORDER_COVERAGE = 0.6;
/**
 * Above this change across the image (ΔE, corner to corner) the "gradient" is two backdrops: a
 * plane through a black left side and a white right side explains both, but not the top and
 * bottom, which step from one to the other.
 */
export const MAX_BACKDROP_GRADIENT = 40;
/**
 * After the cut, above this share of the border's pixels left as subject, what is left is a
 * second backdrop (a floor, a table, a strip of wall) rather than a subject cut off by the frame.
 */
export const MAX_BORDER_SUBJECT = 0.25;
