import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { SLOW, renderWithProviders } from '../../../components/testing/render';
import { makeFile, serveSigning } from '../testing/fixtures';
import { MessageFiles } from './message-files';

const png = makeFile({ name: 'photo.png', size: 1_572_864 });
const svg = makeFile({ name: 'logo.svg', kind: 'image', mime_type: 'image/svg+xml', size: 900 });
const pdf = makeFile({ name: 'cv.pdf', kind: 'pdf', mime_type: 'application/pdf', size: 52_000 });
const markup = makeFile({ name: 'page.html', kind: 'text', mime_type: 'text/plain', size: 12 });

/** Anchor clicks the component makes to follow a download address (jsdom does not navigate). */
function captureDownloads(): string[] {
  const followed: string[] = [];
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
    this: HTMLAnchorElement,
  ) {
    followed.push(this.href);
  });
  return followed;
}

afterEach(() => vi.restoreAllMocks());

describe('a message’s files', () => {
  it('lists each file with its name, size and kind, in the order sent', async () => {
    serveSigning([png.object_key]);
    renderWithProviders(<MessageFiles files={[markup, pdf, png]} />);
    const list = screen.getByRole('list', { name: 'Files' });
    const items = within(list).getAllByRole('listitem');
    expect(items.map((item) => item.textContent)).toEqual([
      expect.stringContaining('photo.png1.5 MB · Image'),
      expect.stringContaining('cv.pdf51 KB · PDF'),
      expect.stringContaining('page.html12 bytes · Text'),
    ]);
    for (const name of ['photo.png', 'cv.pdf', 'page.html'])
      expect(screen.getByRole('button', { name: `Download ${name}` })).toBeInTheDocument();
  });

  it('shows nothing for a message without files', () => {
    const { container } = renderWithProviders(<MessageFiles files={[]} />);
    expect(container).toBeEmptyDOMElement();
  });

  it('previews raster images through a one-minute signed address, never an SVG', async () => {
    const signed = serveSigning([png.object_key, svg.object_key]);
    renderWithProviders(<MessageFiles files={[png, svg]} />);
    const preview = await screen.findByRole('img', { name: 'Preview of photo.png' }, SLOW);
    expect(preview).toHaveAttribute(
      'src',
      expect.stringMatching(/\/storage\/v1\/object\/sign\/submission-files\/.+photo\.png\?token=/),
    );
    expect(preview).toHaveAttribute('referrerpolicy', 'no-referrer');
    expect(signed).toEqual([
      { bucket: 'submission-files', key: png.object_key, body: { expiresIn: 60 } },
    ]);
    expect(screen.queryByRole('img', { name: /logo\.svg/ })).toBeNull();
    expect(document.querySelectorAll('img')).toHaveLength(1);
  });

  it('says when a preview cannot be loaded', async () => {
    serveSigning([]);
    renderWithProviders(<MessageFiles files={[png]} />);
    expect(
      await screen.findByText('No preview of photo.png: the image could not be loaded.', {}, SLOW),
    ).toBeInTheDocument();
    expect(document.querySelector('img')).toBeNull();
  });

  it('downloads through a signed address made at the click, named as stored', async () => {
    const signed = serveSigning([pdf.object_key]);
    const followed = captureDownloads();
    const user = userEvent.setup();
    renderWithProviders(<MessageFiles files={[pdf]} />);
    expect(signed).toEqual([]);
    await user.click(screen.getByRole('button', { name: 'Download cv.pdf' }));
    await waitFor(() => expect(followed).toHaveLength(1));
    expect(signed).toEqual([
      { bucket: 'submission-files', key: pdf.object_key, body: { expiresIn: 60 } },
    ]);
    const url = new URL(followed[0]);
    expect(url.pathname).toMatch(/\/object\/sign\/submission-files\/.+cv\.pdf$/);
    expect(url.searchParams.get('token')).toBe('signed-1');
    expect(url.searchParams.get('download')).toBe('cv.pdf');
  });

  it('says in words when a file cannot be downloaded', async () => {
    serveSigning([]);
    const followed = captureDownloads();
    const user = userEvent.setup();
    renderWithProviders(<MessageFiles files={[pdf]} />);
    await user.click(screen.getByRole('button', { name: 'Download cv.pdf' }));
    expect(await screen.findByRole('alert', {}, SLOW)).toHaveTextContent(
      '“cv.pdf” is no longer stored: it may have been deleted with its message.',
    );
    expect(followed).toEqual([]);
  });
});
