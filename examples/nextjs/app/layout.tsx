/** The root layout: the library's one stylesheet, imported once for the whole app. */
import type { ReactNode } from 'react';
import 'agent-embed/styles.css';

/** Next.js root layout. */
export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body>{children}</body>
    </html>
  );
}
