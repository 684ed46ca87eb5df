// Hands a made file to the browser as a download (an object URL on a temporary link); nothing goes over the network.

/** A file made in the page. */
export interface MadeFile {
  name: string;
  type: string;
  text: string;
}

/** Starts the download of `file`; the object URL is released once the browser has taken it. */
export function saveFile(file: MadeFile): void {
  const url = URL.createObjectURL(new Blob([file.text], { type: file.type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = file.name;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  // Revoking at once can cancel the download in some browsers; a minute is far longer than taking a local blob needs.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
