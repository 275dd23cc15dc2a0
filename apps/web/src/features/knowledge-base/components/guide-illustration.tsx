import type { ReactNode } from 'react';
import type { IllustrationKind } from '../utils/guides';

/**
 * The guides' pictures: schematic scenes drawn here (a phone or a computer with plain shapes for its controls, the
 * one to use in the accent colour), not screenshots of anyone's app. No words inside: the step's text and the alt
 * text say what they show, in the language on screen.
 */
const INK = '#495057'; // Mantine gray 7
const LINE = '#ced4da'; // gray 4
const SURFACE = '#f8f9fa'; // gray 0
const PANEL = '#e9ecef'; // gray 2
const ACCENT = '#1971c2'; // blue 8, the theme's primary
const ACCENT_LIGHT = '#d0ebff'; // blue 1
const WHITE = '#ffffff';

export function GuideIllustration({ kind, alt }: { kind: IllustrationKind; alt: string }) {
  const desktop = kind.startsWith('desktop-');
  return (
    <svg
      viewBox="0 0 240 160"
      width="100%"
      role="img"
      aria-label={alt}
      style={{ maxWidth: 320, display: 'block' }}
      data-testid="guide-illustration"
      data-kind={kind}
    >
      {desktop ? <DesktopFrame selected={SIDEBAR_SELECTION[kind] ?? 0}>{SCENES[kind]}</DesktopFrame> : null}
      {desktop ? null : <PhoneFrame>{SCENES[kind]}</PhoneFrame>}
    </svg>
  );
}

/** Where the desktop window's side menu stands: General, Profiles, Proxies. */
const SIDEBAR_SELECTION: Partial<Record<IllustrationKind, number>> = {
  'desktop-system-proxy': 0,
  'desktop-import-url': 1,
  'desktop-select-node': 2,
};

function PhoneFrame({ children }: { children: ReactNode }) {
  return (
    <g>
      <rect x={78} y={6} width={84} height={148} rx={14} fill={WHITE} stroke={INK} strokeWidth={2} />
      <rect x={84} y={18} width={72} height={124} rx={4} fill={SURFACE} />
      <rect x={108} y={10} width={24} height={4} rx={2} fill={INK} />
      <rect x={84} y={18} width={72} height={16} rx={4} fill={PANEL} />
      <rect x={90} y={24} width={26} height={4} rx={2} fill={INK} />
      {children}
    </g>
  );
}

function DesktopFrame({ selected, children }: { selected: number; children: ReactNode }) {
  return (
    <g>
      <path d="M106 130 L101 146 H139 L134 130" fill={WHITE} stroke={INK} strokeWidth={2} strokeLinejoin="round" />
      <rect x={88} y={145} width={64} height={5} rx={2.5} fill={INK} />
      <rect x={20} y={10} width={200} height={120} rx={6} fill={WHITE} stroke={INK} strokeWidth={2} />
      <rect x={26} y={16} width={188} height={108} fill={SURFACE} />
      <rect x={26} y={16} width={188} height={10} fill={PANEL} />
      <circle cx={32} cy={21} r={2} fill={INK} />
      <circle cx={39} cy={21} r={2} fill={INK} />
      <rect x={26} y={26} width={46} height={98} fill={PANEL} />
      {[0, 1, 2, 3].map((index) => (
        <rect
          key={index}
          x={30}
          y={32 + index * 14}
          width={38}
          height={9}
          rx={2}
          fill={index === selected ? ACCENT : WHITE}
        />
      ))}
      {children}
    </g>
  );
}

/** A ring around the control to use, as a finger would touch it. */
function Tap({ x, y, r = 11 }: { x: number; y: number; r?: number }) {
  return <circle cx={x} cy={y} r={r} fill="none" stroke={ACCENT} strokeWidth={2} strokeDasharray="3 2" />;
}

function TextLine({ x, y, width, fill = INK }: { x: number; y: number; width: number; fill?: string }) {
  return <rect x={x} y={y} width={width} height={3} rx={1.5} fill={fill} />;
}

const SCENES: Record<IllustrationKind, ReactNode> = {
  'phone-login': (
    <g>
      <circle cx={120} cy={48} r={9} fill={ACCENT_LIGHT} stroke={ACCENT} strokeWidth={2} />
      <rect x={92} y={64} width={56} height={12} rx={3} fill={WHITE} stroke={LINE} />
      <TextLine x={96} y={68.5} width={30} fill={LINE} />
      <rect x={92} y={82} width={56} height={12} rx={3} fill={WHITE} stroke={LINE} />
      {[0, 1, 2, 3, 4].map((index) => (
        <circle key={index} cx={98 + index * 6} cy={88} r={1.6} fill={INK} />
      ))}
      <rect x={92} y={102} width={56} height={14} rx={4} fill={ACCENT} />
      <TextLine x={108} y={107.5} width={24} fill={WHITE} />
      <Tap x={120} y={109} r={16} />
    </g>
  ),
  'phone-import-clipboard': (
    <g>
      {[44, 88, 104, 120].map((y) => (
        <rect key={y} x={88} y={y} width={64} height={10} rx={2} fill={WHITE} stroke={LINE} />
      ))}
      <circle cx={146} cy={26} r={6} fill={ACCENT} />
      <path d="M146 23v6M143 26h6" stroke={WHITE} strokeWidth={1.6} strokeLinecap="round" />
      <Tap x={146} y={26} r={9} />
      <rect x={98} y={38} width={54} height={42} rx={3} fill={WHITE} stroke={INK} />
      <rect x={100} y={41} width={50} height={12} rx={2} fill={ACCENT_LIGHT} />
      <rect x={103} y={43} width={6} height={8} rx={1} fill="none" stroke={ACCENT} strokeWidth={1.4} />
      <TextLine x={112} y={45.5} width={32} fill={ACCENT} />
      <TextLine x={104} y={59.5} width={36} fill={LINE} />
      <TextLine x={104} y={71.5} width={30} fill={LINE} />
    </g>
  ),
  'phone-update-subscription': (
    <g>
      {[44, 60, 76, 92, 108, 124].map((y) => (
        <rect key={y} x={88} y={y} width={64} height={10} rx={2} fill={WHITE} stroke={LINE} />
      ))}
      {[22, 26, 30].map((y) => (
        <circle key={y} cx={148} cy={y} r={1.6} fill={ACCENT} />
      ))}
      <Tap x={148} y={26} r={7} />
      <rect x={96} y={36} width={56} height={50} rx={3} fill={WHITE} stroke={INK} />
      <TextLine x={102} y={42} width={38} fill={LINE} />
      <TextLine x={102} y={53} width={32} fill={LINE} />
      <rect x={98} y={61} width={52} height={12} rx={2} fill={ACCENT_LIGHT} />
      <path
        d="M108 67a4 4 0 1 1-1.2-2.9M107 62.5v2.2h2.2"
        fill="none"
        stroke={ACCENT}
        strokeWidth={1.4}
        strokeLinecap="round"
      />
      <TextLine x={115} y={65.5} width={28} fill={ACCENT} />
      <TextLine x={102} y={78} width={34} fill={LINE} />
    </g>
  ),
  'phone-select-node': (
    <g>
      {[42, 60, 78, 96, 114].map((y, index) => {
        const chosen = index === 1;
        return (
          <g key={y}>
            <rect
              x={88}
              y={y}
              width={64}
              height={14}
              rx={3}
              fill={chosen ? ACCENT_LIGHT : WHITE}
              stroke={chosen ? ACCENT : LINE}
            />
            <circle cx={95} cy={y + 7} r={2.5} fill={chosen ? ACCENT : LINE} />
            <TextLine x={101} y={y + 5.5} width={30} fill={chosen ? ACCENT : INK} />
            {chosen ? (
              <path
                d={`M138 ${y + 7}l3 3 6-6`}
                fill="none"
                stroke={ACCENT}
                strokeWidth={1.8}
                strokeLinecap="round"
                strokeLinejoin="round"
              />
            ) : null}
          </g>
        );
      })}
      <Tap x={120} y={67} r={18} />
    </g>
  ),
  'phone-connect': (
    <g>
      <circle cx={120} cy={82} r={30} fill={ACCENT_LIGHT} />
      <circle cx={120} cy={82} r={22} fill={ACCENT} />
      <path d="M113 76a10 10 0 1 0 14 0M120 70v10" fill="none" stroke={WHITE} strokeWidth={3} strokeLinecap="round" />
      <TextLine x={104} y={122} width={32} fill={ACCENT} />
    </g>
  ),
  'phone-vpn-permission': (
    <g>
      {[42, 58, 74, 90, 106, 122].map((y) => (
        <rect key={y} x={88} y={y} width={64} height={10} rx={2} fill={WHITE} stroke={LINE} />
      ))}
      <rect x={84} y={34} width={72} height={108} fill={INK} opacity={0.35} />
      <rect x={90} y={58} width={60} height={50} rx={5} fill={WHITE} />
      <TextLine x={96} y={65} width={40} />
      <TextLine x={96} y={73} width={48} fill={LINE} />
      <TextLine x={96} y={79} width={36} fill={LINE} />
      <rect x={95} y={91} width={23} height={11} rx={3} fill={PANEL} />
      <rect x={122} y={91} width={23} height={11} rx={3} fill={ACCENT} />
      <TextLine x={127} y={95} width={13} fill={WHITE} />
      <Tap x={133.5} y={96.5} r={13} />
    </g>
  ),
  'desktop-import-url': (
    <g>
      <rect x={80} y={34} width={88} height={14} rx={3} fill={WHITE} stroke={LINE} />
      <TextLine x={85} y={39.5} width={62} />
      <rect x={172} y={34} width={36} height={14} rx={3} fill={ACCENT} />
      <path d="M190 37v7M187 41l3 3 3-3" fill="none" stroke={WHITE} strokeWidth={1.5} strokeLinecap="round" />
      <Tap x={190} y={41} r={14} />
      {[80, 146].map((x) => (
        <g key={x}>
          <rect x={x} y={58} width={60} height={30} rx={3} fill={WHITE} stroke={LINE} />
          <TextLine x={x + 6} y={66} width={34} />
          <TextLine x={x + 6} y={75} width={44} fill={LINE} />
        </g>
      ))}
    </g>
  ),
  'desktop-select-node': (
    <g>
      <TextLine x={80} y={34} width={50} />
      {[0, 1, 2, 3, 4, 5].map((index) => {
        const x = 80 + (index % 3) * 44;
        const y = 44 + Math.floor(index / 3) * 28;
        const chosen = index === 4;
        return (
          <g key={index}>
            <rect
              x={x}
              y={y}
              width={40}
              height={22}
              rx={3}
              fill={chosen ? ACCENT_LIGHT : WHITE}
              stroke={chosen ? ACCENT : LINE}
              strokeWidth={chosen ? 2 : 1}
            />
            <TextLine x={x + 5} y={y + 6} width={24} fill={chosen ? ACCENT : INK} />
            <TextLine x={x + 5} y={y + 13} width={14} fill={LINE} />
          </g>
        );
      })}
      <Tap x={144} y={83} r={16} />
    </g>
  ),
  'desktop-system-proxy': (
    <g>
      {[34, 52, 70, 88].map((y, index) => {
        const on = index === 2;
        return (
          <g key={y}>
            {on ? <rect x={78} y={y - 2} width={132} height={16} rx={3} fill={ACCENT_LIGHT} /> : null}
            <TextLine x={82} y={y + 4.5} width={on ? 56 : 48} fill={on ? ACCENT : INK} />
            <rect x={182} y={y} width={22} height={12} rx={6} fill={on ? ACCENT : LINE} />
            <circle cx={on ? 198 : 188} cy={y + 6} r={4} fill={WHITE} />
          </g>
        );
      })}
      <Tap x={193} y={76} r={14} />
    </g>
  ),
};
