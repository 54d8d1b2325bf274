// A server component: the HTML of <video-plugin> (its attributes) is rendered on the server; the
// client component Studio hydrates it and the element upgrades in the browser.
import { Studio } from './studio';

export const dynamic = 'force-dynamic';

export default async function Page({ searchParams }: { searchParams: Promise<Record<string, string | undefined>> }) {
  const { partner = '', service = '' } = await searchParams;
  return <Studio partner={partner} service={service} />;
}
