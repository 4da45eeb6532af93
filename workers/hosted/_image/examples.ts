/**
 * Tiny images for the operations' documented examples (docs samples, live-demo defaults,
 * property-test seeds). Made with `fixtures.ts`; each API's tests decode them and check the
 * pixels described here, so a wrong constant fails a test.
 */

/** 4×4 PNG in quadrants: red top-left, lime top-right, blue bottom-left, white bottom-right. */
export const EXAMPLE_QUADRANTS_PNG =
  "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAQAAAAECAYAAACp8Z5+AAAAS0lEQVR4Ae3AA6AkWZbG8f937o3IzKdyS2Oubdu2bdu2bdu2bWmMnpZKr54yMyLu+Xa3anqmhztr1a8aDCADQOU5UYUBMJdReU78I/dTBQ43hYJUAAAAAElFTkSuQmCC";

/** 2×2 PNG, solid red. */
export const EXAMPLE_RED_PNG =
  "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAYAAABytg0kAAAAHUlEQVR4AQESAO3/AP8AAP//AAD/AP8AAP//AAD/R8oH+YOsvdsAAAAASUVORK5CYII=";

/** 2×2 PNG, solid blue. */
export const EXAMPLE_BLUE_PNG =
  "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAYAAABytg0kAAAAHUlEQVR4AQESAO3/AAAA//8AAP//AAAA//8AAP//P9IH+dkBlB8AAAAASUVORK5CYII=";

/**
 * 8×8 PNG: a 1-pixel white frame (28 pixels) around red (30 pixels), with the frame's inner
 * bottom row blue (6 pixels). Dominant red, background white.
 */
export const EXAMPLE_FRAMED_PNG =
  "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAgAAAAICAYAAADED76LAAAAW0lEQVR4Ae3AA6AkWZbG8f937o3IzKdyS2Oubdu2bdu2bdu2bWmMnpZKr54yMyLu+Xa3anqmhztr1a/aNi8YFQCJ58um8sJReeGovHBUXjgqgDDPj4EKYPOC8I9NsgoaFBPHfAAAAABJRU5ErkJggg==";
