/**
 * Hands a downloaded file to the browser's save flow: an object URL on a temporary link, then
 * the URL is released once the click has been dispatched.
 */
export function saveBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.rel = 'noopener';
  link.style.display = 'none';
  document.body.appendChild(link);
  link.click();
  link.remove();
  // Some browsers read the URL after the click returns; release it on the next turn.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
