/**
 * A Server Component page. It may pass only serialisable props to client components: strings, numbers,
 * plain objects. Callbacks (`onError`, `onBuyCredits`) and labels that are functions live in the client
 * wrapper, `builder.tsx`.
 */
import { Builder } from './builder';

/** The page: the agency's own content around the one-line embed. */
export default async function Page() {
  // Read the signed-in end user from your session here (cookies() and your auth library).
  const user = { id: 'alice', name: 'Alice' };
  return (
    <main>
      <h1>Your website builder</h1>
      <Builder userId={user.id} userName={user.name} promptLabel="Describe the site you want" />
    </main>
  );
}
