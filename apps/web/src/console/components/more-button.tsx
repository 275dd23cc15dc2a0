import { Button, Group } from '@mantine/core';

/** The next page of a list read a page at a time (the server's keyset cursor); none when the list is complete. */
export function MoreButton({
  pages,
  label,
}: {
  pages: { hasNextPage: boolean; isFetchingNextPage: boolean; fetchNextPage: () => Promise<unknown> };
  label: string;
}) {
  if (!pages.hasNextPage) return null;
  return (
    <Group>
      <Button variant="default" loading={pages.isFetchingNextPage} onClick={() => void pages.fetchNextPage()}>
        {label}
      </Button>
    </Group>
  );
}
