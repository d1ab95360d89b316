/** Decorative background: soft gradient orbs and a hexagon grid, drawn in SVG (no image files). */
export function HeroArt() {
  return (
    <svg width="100%" height="100%" viewBox="0 0 600 800" preserveAspectRatio="xMidYMid slice" aria-hidden="true">
      <defs>
        <radialGradient id="orb-a" cx="0.3" cy="0.3" r="0.5">
          <stop offset="0" stopColor="#7c3aed" stopOpacity="0.85" />
          <stop offset="1" stopColor="#7c3aed" stopOpacity="0" />
        </radialGradient>
        <radialGradient id="orb-b" cx="0.7" cy="0.75" r="0.45">
          <stop offset="0" stopColor="#ec4899" stopOpacity="0.7" />
          <stop offset="1" stopColor="#ec4899" stopOpacity="0" />
        </radialGradient>
        <pattern id="hex" width="56" height="48" patternUnits="userSpaceOnUse" patternTransform="scale(1.2)">
          <path d="M14 0h28l14 24-14 24H14L0 24z" fill="none" stroke="white" strokeOpacity="0.07" strokeWidth="1.5" />
        </pattern>
      </defs>
      <rect width="600" height="800" fill="url(#hex)" />
      <rect width="600" height="800" fill="url(#orb-a)" />
      <rect width="600" height="800" fill="url(#orb-b)" />
    </svg>
  )
}
