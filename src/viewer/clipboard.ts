// Copies text to the clipboard: the Clipboard API where the page is a secure context, else the older copy command.

/** True when the text reached the clipboard. */
export async function copyText(text: string): Promise<boolean> {
  try {
    if (navigator.clipboard) {
      await navigator.clipboard.writeText(text);
      return true;
    }
  } catch {
    // Refused (no permission, document not focused): try the copy command below.
  }
  // A server reached over plain http on a LAN address is not a secure context and has no Clipboard API.
  const area = document.createElement('textarea');
  area.value = text;
  area.readOnly = true;
  area.className = 'offscreen';
  document.body.append(area);
  area.select();
  try {
    return document.execCommand('copy');
  } catch {
    return false;
  } finally {
    area.remove();
  }
}

/** The page's own address to pass on, without `?lang=` (the person receiving it gets their own language). */
export function shareableUrl(href: string): string {
  const url = new URL(href);
  url.searchParams.delete('lang');
  return url.href;
}
