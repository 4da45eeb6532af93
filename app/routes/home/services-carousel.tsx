/**
 * 'Our Services' (docs/product.md#services-carousel): one card below 768 px, two below 1024 px, else three; arrows
 * disabled at the ends; a 10 px swipe moves one card; 500 ms transition; the 16 card images
 * cycle. Card widths come from CSS breakpoints, so the server's HTML is already right and
 * JavaScript only tracks how many cards are in view.
 */
import { ChevronLeft, ChevronRight } from "lucide-react";
import { useEffect, useRef, useState, type KeyboardEvent, type PointerEvent } from "react";
import { Link } from "react-router";
import type { MenuItem } from "~/lib/page-meta";

export const CARD_IMAGE_COUNT = 16;
export const TRANSITION_MS = 500;
export const SWIPE_THRESHOLD_PX = 10;
/** The home page re-measures 800 ms after the last resize (docs/product.md#timings). */
export const RESIZE_DEBOUNCE_MS = 800;

export function cardsInView(width: number): number {
  if (width < 768) return 1;
  if (width < 1024) return 2;
  return 3;
}

export function cardImage(index: number): string {
  return `/cards/card-${String((index % CARD_IMAGE_COUNT) + 1).padStart(2, "0")}.svg`;
}

export function ServicesCarousel({ services }: { services: MenuItem[] }) {
  const [perView, setPerView] = useState(3);
  const [first, setFirst] = useState(0);
  const swipeStart = useRef<number | null>(null);

  useEffect(() => {
    const measure = () => setPerView(cardsInView(window.innerWidth));
    measure();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const onResize = () => {
      clearTimeout(timer);
      timer = setTimeout(measure, RESIZE_DEBOUNCE_MS);
    };
    window.addEventListener("resize", onResize);
    return () => {
      clearTimeout(timer);
      window.removeEventListener("resize", onResize);
    };
  }, []);

  const lastFirst = Math.max(0, services.length - perView);
  const start = Math.min(first, lastFirst);
  const atStart = start === 0;
  const atEnd = start >= lastFirst;
  const move = (step: number) => setFirst(Math.max(0, Math.min(lastFirst, start + step)));

  const onPointerDown = (event: PointerEvent) => {
    swipeStart.current = event.clientX;
  };
  const onPointerUp = (event: PointerEvent) => {
    if (swipeStart.current === null) return;
    const dx = event.clientX - swipeStart.current;
    swipeStart.current = null;
    if (Math.abs(dx) > SWIPE_THRESHOLD_PX) move(dx < 0 ? 1 : -1);
  };
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === "ArrowRight") move(1);
    else if (event.key === "ArrowLeft") move(-1);
    else return;
    event.preventDefault();
  };

  const arrowClass =
    "rounded-full border border-slate-300 p-2 hover:bg-slate-100 disabled:cursor-not-allowed disabled:opacity-40 disabled:hover:bg-transparent dark:border-slate-700 dark:hover:bg-slate-800";

  return (
    <section
      aria-roledescription="carousel"
      aria-labelledby="services-heading"
      className="mx-auto max-w-7xl py-16 pl-4 pr-(--fab-gutter)"
      onKeyDown={onKeyDown}
    >
      <div className="flex items-end justify-between gap-4">
        <div>
          <h2 id="services-heading" className="text-3xl font-bold tracking-tight">
            Our Services
          </h2>
          <p className="mt-2 text-slate-600 dark:text-slate-400">
            {services.length} hosted APIs, one key. Use the arrows, swipe, or the arrow keys.
          </p>
        </div>
        <div className="flex gap-2">
          <button
            type="button"
            aria-label="Previous services"
            disabled={atStart}
            onClick={() => move(-1)}
            className={arrowClass}
          >
            <ChevronLeft aria-hidden="true" className="size-5" />
          </button>
          <button
            type="button"
            aria-label="Next services"
            disabled={atEnd}
            onClick={() => move(1)}
            className={arrowClass}
          >
            <ChevronRight aria-hidden="true" className="size-5" />
          </button>
        </div>
      </div>
      <div
        className="mt-8 overflow-hidden"
        onPointerDown={onPointerDown}
        onPointerUp={onPointerUp}
        style={{ touchAction: "pan-y" }}
      >
        <ul
          className="flex"
          data-testid="carousel-track"
          style={{
            transform: `translateX(-${(start * 100) / perView}%)`,
            transition: `transform ${TRANSITION_MS}ms ease`,
          }}
        >
          {services.map((service, index) => {
            const inView = index >= start && index < start + perView;
            return (
              <li
                key={service._id}
                aria-roledescription="slide"
                aria-label={`${index + 1} of ${services.length}: ${service.name} API`}
                aria-hidden={!inView}
                inert={!inView}
                data-in-view={inView}
                className="w-full shrink-0 px-2 md:w-1/2 lg:w-1/3"
              >
                <article className="flex h-full flex-col overflow-hidden rounded-xl border border-slate-200 bg-white shadow-sm dark:border-slate-800 dark:bg-slate-900">
                  <img
                    src={cardImage(index)}
                    alt=""
                    width={640}
                    height={360}
                    loading={index < 3 ? "eager" : "lazy"}
                    draggable={false}
                    className="aspect-video w-full object-cover"
                  />
                  <div className="flex flex-1 flex-col p-5">
                    <h3 className="text-lg font-semibold">{service.name} API</h3>
                    <p className="mt-2 flex-1 text-sm text-slate-600 dark:text-slate-400">{service.description}</p>
                    <Link
                      to={service.endpoint}
                      className="mt-4 w-fit rounded-md bg-brand-600 px-4 py-2 text-sm font-medium text-white hover:bg-brand-700"
                    >
                      API Docs
                      <span className="sr-only"> for {service.name}</span>
                    </Link>
                  </div>
                </article>
              </li>
            );
          })}
        </ul>
      </div>
    </section>
  );
}
