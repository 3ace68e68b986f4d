/**
 * The sample clip's pictures: "Little Wins", a fictional habit tracker, as a screen recording of a
 * phone (1080x1920, the canonical frame). Today's habits slide in and get ticked one by one while the
 * progress ring fills, a finger taps the Stats tab, the screen slides over to a week whose bars grow
 * and a streak that counts up. Every frame is a pure function of its time: the same clip on every
 * machine, nothing random, nothing fetched.
 */
import type { SKRSContext2D } from '@napi-rs/canvas';
import { SAMPLE_DEMO } from '#domain/sample-product';
import { font, type Weight } from './sample-text';
const { max, min, PI, round } = Math;

const W = SAMPLE_DEMO.width;
const H = SAMPLE_DEMO.height;

const COLOURS = {
  background: '#F5F3EE',
  card: '#FFFFFF',
  shade: '#E6E2DA',
  ink: '#1F2430',
  muted: '#8A90A0',
  track: '#E7E4DD',
  green: '#2FB67C',
  coral: '#FF7A59',
  blue: '#4F7CFF',
  yellow: '#F5B83D',
  purple: '#9B6BFF',
} as const;

/** When things happen, in seconds from the start (the clip lasts SAMPLE_DEMO.durationS). */
const TIMELINE = {
  rowsIn: 0.15,
  rowStagger: 0.14,
  rowFade: 0.35,
  checks: [1.15, 1.45, 1.75, 2.05],
  tap: 2.4,
  slide: { from: 2.75, to: 3.2 },
  barsFrom: 3.25,
  barStagger: 0.08,
  barGrow: 0.6,
  streak: { from: 4.1, to: 4.9 },
  rate: { from: 4.5, to: 5.4 },
} as const;

const HABITS = [
  { name: 'Drink water', detail: '8 glasses, daily', colour: COLOURS.blue },
  { name: 'Read 10 pages', detail: 'Before bed', colour: COLOURS.purple },
  { name: 'Morning walk', detail: '20 minutes', colour: COLOURS.green },
  { name: 'Meditate', detail: '5 minutes', colour: COLOURS.yellow },
  { name: 'Stretch', detail: 'After work', colour: COLOURS.coral },
] as const;

const WEEK = [
  { day: 'M', done: 3 },
  { day: 'T', done: 4 },
  { day: 'W', done: 2 },
  { day: 'T', done: 5 },
  { day: 'F', done: 4 },
  { day: 'S', done: 5 },
  { day: 'S', done: 4 },
] as const;

const clamp01 = (x: number) => max(0, min(1, x));
/** 0 before `from`, 1 after `from + length`, eased out in between. */
const easeOut = (t: number, from: number, length: number) => 1 - (1 - clamp01((t - from) / length)) ** 3;
const easeInOut = (t: number, from: number, length: number) => {
  const x = clamp01((t - from) / length);
  return x < 0.5 ? 4 * x ** 3 : 1 - (-2 * x + 2) ** 3 / 2;
};
/** A small overshoot, for things that pop in. */
const easeBack = (t: number, from: number, length: number) => {
  const x = clamp01((t - from) / length);
  const c = 1.7;
  return 1 + (c + 1) * (x - 1) ** 3 + c * (x - 1) ** 2;
};

function text(ctx: SKRSContext2D, value: string, x: number, y: number, size: number, weight: Weight, colour: string, align: 'left' | 'center' | 'right' = 'left'): void {
  ctx.font = font(size, weight);
  ctx.fillStyle = colour;
  ctx.textAlign = align;
  ctx.fillText(value, x, y);
}

/** A card: a white rounded rectangle on a soft shadow drawn as a second shape (no blur: cheap). */
function card(ctx: SKRSContext2D, x: number, y: number, w: number, h: number, radius = 36): void {
  ctx.fillStyle = COLOURS.shade;
  ctx.beginPath();
  ctx.roundRect(x, y + 6, w, h, radius);
  ctx.fill();
  ctx.fillStyle = COLOURS.card;
  ctx.beginPath();
  ctx.roundRect(x, y, w, h, radius);
  ctx.fill();
}

function circle(ctx: SKRSContext2D, cx: number, cy: number, r: number, colour: string): void {
  ctx.fillStyle = colour;
  ctx.beginPath();
  ctx.arc(cx, cy, r, 0, 2 * PI);
  ctx.fill();
}

function statusBar(ctx: SKRSContext2D): void {
  text(ctx, '9:41', 70, 78, 40, 800, COLOURS.ink);
  ctx.strokeStyle = COLOURS.ink;
  ctx.lineWidth = 4;
  ctx.beginPath();
  ctx.roundRect(930, 50, 80, 38, 10);
  ctx.stroke();
  ctx.fillStyle = COLOURS.ink;
  ctx.beginPath();
  ctx.roundRect(937, 57, 56, 24, 5);
  ctx.fill();
  ctx.fillRect(1013, 61, 6, 16);
}

/** The check mark a ticked habit shows, popping in as it is ticked. */
function checkbox(ctx: SKRSContext2D, cx: number, cy: number, ticked: number): void {
  ctx.lineWidth = 6;
  ctx.strokeStyle = COLOURS.track;
  ctx.beginPath();
  ctx.arc(cx, cy, 38, 0, 2 * PI);
  ctx.stroke();
  if (ticked <= 0) return;
  const r = 38 * ticked;
  circle(ctx, cx, cy, r, COLOURS.green);
  ctx.save();
  ctx.translate(cx, cy);
  ctx.scale(ticked, ticked);
  ctx.strokeStyle = COLOURS.card;
  ctx.lineWidth = 9;
  ctx.lineCap = 'round';
  ctx.lineJoin = 'round';
  ctx.beginPath();
  ctx.moveTo(-16, 1);
  ctx.lineTo(-5, 13);
  ctx.lineTo(17, -12);
  ctx.stroke();
  ctx.restore();
}

function progressRing(ctx: SKRSContext2D, cx: number, cy: number, done: number): void {
  ctx.lineWidth = 18;
  ctx.lineCap = 'round';
  ctx.strokeStyle = COLOURS.track;
  ctx.beginPath();
  ctx.arc(cx, cy, 74, 0, 2 * PI);
  ctx.stroke();
  if (done > 0) {
    ctx.strokeStyle = COLOURS.green;
    ctx.beginPath();
    ctx.arc(cx, cy, 74, -PI / 2, -PI / 2 + (2 * PI * done) / HABITS.length);
    ctx.stroke();
  }
  text(ctx, `${round(done)}/${HABITS.length}`, cx, cy + 16, 44, 800, COLOURS.ink, 'center');
}

/** How far each habit is ticked at `t` (0..1, with the pop's overshoot). */
const tickOf = (t: number, index: number) => {
  const at = TIMELINE.checks[index];
  return at === undefined ? 0 : easeBack(t, at, 0.22);
};

function todayScreen(ctx: SKRSContext2D, t: number): void {
  text(ctx, 'Tuesday', 70, 220, 40, 600, COLOURS.muted);
  text(ctx, 'Good morning, Sam', 70, 300, 62, 800, COLOURS.ink);
  const done = TIMELINE.checks.reduce((sum, _at, i) => sum + clamp01(tickOf(t, i)), 0);
  progressRing(ctx, 900, 250, done);
  HABITS.forEach((habit, i) => {
    const shown = easeOut(t, TIMELINE.rowsIn + i * TIMELINE.rowStagger, TIMELINE.rowFade);
    if (shown <= 0) return;
    const y = 400 + i * 200 + (1 - shown) * 60;
    ctx.save();
    ctx.globalAlpha = shown;
    card(ctx, 60, y, 960, 170);
    circle(ctx, 150, y + 85, 46, habit.colour);
    text(ctx, habit.name.charAt(0), 150, y + 102, 46, 800, COLOURS.card, 'center');
    text(ctx, habit.name, 230, y + 78, 46, 800, COLOURS.ink);
    text(ctx, habit.detail, 230, y + 128, 34, 600, COLOURS.muted);
    checkbox(ctx, 930, y + 85, tickOf(t, i));
    ctx.restore();
  });
}

function statsScreen(ctx: SKRSContext2D, t: number): void {
  text(ctx, 'This week', 70, 300, 62, 800, COLOURS.ink);
  text(ctx, 'Habits ticked each day', 70, 220, 40, 600, COLOURS.muted);
  card(ctx, 60, 380, 960, 700);
  const top = 460;
  const base = 960;
  const maxDone = HABITS.length;
  WEEK.forEach((day, i) => {
    const x = 130 + i * 128;
    const grown = easeBack(t, TIMELINE.barsFrom + i * TIMELINE.barStagger, TIMELINE.barGrow);
    const height = max(0, ((base - top) * day.done * grown) / maxDone);
    ctx.fillStyle = COLOURS.track;
    ctx.beginPath();
    ctx.roundRect(x, top, 72, base - top, 24);
    ctx.fill();
    if (height > 1) {
      ctx.fillStyle = i === 1 ? COLOURS.green : '#8FD9B6';
      ctx.beginPath();
      ctx.roundRect(x, base - height, 72, height, min(24, height / 2));
      ctx.fill();
    }
    text(ctx, day.day, x + 36, 1030, 38, 800, i === 1 ? COLOURS.ink : COLOURS.muted, 'center');
  });

  const streak = easeOut(t, TIMELINE.streak.from, TIMELINE.streak.to - TIMELINE.streak.from);
  card(ctx, 60, 1130, 960, 220);
  circle(ctx, 170, 1240, 62, COLOURS.coral);
  circle(ctx, 170, 1258, 30, COLOURS.yellow);
  text(ctx, `${max(1, round(12 * streak))}-day streak`, 270, 1232, 56, 800, COLOURS.ink);
  text(ctx, 'Your best run yet', 270, 1290, 36, 600, COLOURS.muted);

  const rate = easeOut(t, TIMELINE.rate.from, TIMELINE.rate.to - TIMELINE.rate.from);
  card(ctx, 60, 1400, 960, 250);
  text(ctx, 'Completion', 110, 1480, 40, 600, COLOURS.muted);
  text(ctx, `${round(86 * rate)}%`, 970, 1480, 56, 800, COLOURS.ink, 'right');
  ctx.fillStyle = COLOURS.track;
  ctx.beginPath();
  ctx.roundRect(110, 1540, 860, 40, 20);
  ctx.fill();
  if (rate > 0.02) {
    ctx.fillStyle = COLOURS.green;
    ctx.beginPath();
    ctx.roundRect(110, 1540, 860 * 0.86 * rate, 40, 20);
    ctx.fill();
  }
}

const TABS = [
  { label: 'Today', x: 200 },
  { label: 'Stats', x: 540 },
  { label: 'Profile', x: 880 },
] as const;

function tabBar(ctx: SKRSContext2D, t: number): void {
  ctx.fillStyle = COLOURS.card;
  ctx.fillRect(0, 1740, W, H - 1740);
  ctx.fillStyle = COLOURS.shade;
  ctx.fillRect(0, 1740, W, 3);
  const active = t < TIMELINE.tap + 0.15 ? 0 : 1;
  TABS.forEach((tab, i) => {
    const colour = i === active ? COLOURS.green : COLOURS.muted;
    ctx.fillStyle = colour;
    ctx.beginPath();
    ctx.roundRect(tab.x - 28, 1772, 56, 56, 16);
    ctx.fill();
    text(ctx, tab.label, tab.x, 1880, 34, 800, colour, 'center');
  });
}

/** A finger's tap on the Stats tab: a dot pressing in, then a ring spreading and fading. */
function tap(ctx: SKRSContext2D, t: number): void {
  const since = t - TIMELINE.tap;
  if (since < -0.2 || since > 0.6) return;
  const press = since < 0 ? 1 + since / 0.2 : max(0, 1 - since / 0.35);
  ctx.save();
  ctx.globalAlpha = 0.35 * press;
  circle(ctx, TABS[1].x, 1800, 70 - 14 * clamp01(since / 0.1), COLOURS.ink);
  ctx.restore();
  if (since > 0) {
    const ring = easeOut(t, TIMELINE.tap, 0.6);
    ctx.save();
    ctx.globalAlpha = 0.5 * (1 - ring);
    ctx.strokeStyle = COLOURS.green;
    ctx.lineWidth = 8;
    ctx.beginPath();
    ctx.arc(TABS[1].x, 1800, 60 + 110 * ring, 0, 2 * PI);
    ctx.stroke();
    ctx.restore();
  }
}

/** Draws the frame at `t` seconds onto a W×H context. */
export function drawLittleWins(ctx: SKRSContext2D, t: number): void {
  ctx.fillStyle = COLOURS.background;
  ctx.fillRect(0, 0, W, H);
  const slide = easeInOut(t, TIMELINE.slide.from, TIMELINE.slide.to - TIMELINE.slide.from);
  if (slide < 1) {
    ctx.save();
    ctx.translate(-W * slide, 0);
    todayScreen(ctx, t);
    ctx.restore();
  }
  if (slide > 0) {
    ctx.save();
    ctx.translate(W * (1 - slide), 0);
    statsScreen(ctx, t);
    ctx.restore();
  }
  statusBar(ctx);
  tabBar(ctx, t);
  tap(ctx, t);
}

/** When the tap lands and each habit is ticked (s): the sound's click and ticks go there. */
export const TAP_AT_S = TIMELINE.tap;
export const TICKS_AT_S: readonly number[] = TIMELINE.checks;
