/**
 * The reviewed filters of the select stage, kept in one place: infobox keys that style or lay out
 * the box rather than state a fact, values that are file names, and empty values. A change dropped by
 * them is never a question: its "answer" would be a colour, an image or nothing.
 */
import type { FilterReason } from '../model/weekly.js';

/** Keys that are layout or styling, compared after normalisation (lowercase, underscores). */
const STYLING_KEYS: ReadonlySet<string> = new Set([
  'align', 'alt', 'background', 'bgcolor', 'bodyclass', 'bodystyle', 'border', 'box_width', 'caption', 'child',
  'class', 'color', 'colour', 'data_style', 'datastyle', 'embed', 'float', 'font_color', 'fontcolor', 'header_style',
  'headerstyle', 'headercolor', 'image', 'image_alt', 'image_caption', 'image_map', 'image_size', 'image_upright',
  'image_width', 'imagesize', 'label_style', 'labelstyle', 'logo', 'logo_alt', 'logo_caption', 'logo_size',
  'logo_upright', 'map', 'map_alt', 'map_caption', 'map_image', 'map_size', 'mapsize', 'module', 'module2',
  'module3', 'pushpin_label', 'pushpin_label_position', 'pushpin_map', 'pushpin_map_alt', 'pushpin_map_caption',
  'pushpin_mapsize', 'pushpin_relief', 'signature', 'signature_alt', 'signature_size', 'size', 'style',
  'subbox', 'text_color', 'textcolor', 'title_style', 'titlestyle', 'upright', 'width',
]);

/** Families of styling keys: image1, image_size2, flag_caption, …_color, …_style. */
const STYLING_KEY_PATTERNS: readonly RegExp[] = [
  /^(image|logo|map|flag|seal|shield|coat_of_arms|emblem|blank_emblem|signature|photo|picture|pushpin)\d*(_(size|alt|caption|upright|width|type|link))?\d*$/,
  /_(size|alt|upright|width|style|color|colour|bgcolor)\d*$/,
  /^(module|embed|child)\d*$/,
];

const FILE_EXTENSIONS = 'png|jpe?g|gif|svg|tiff?|webp|bmp|xcf|ogg|oga|ogv|webm|mp3|mp4|wav|flac|mid|midi|pdf|djvu';
const FILE_VALUE = new RegExp(`^(?:(?:file|image|media):)?[^\\n]{0,240}\\.(?:${FILE_EXTENSIONS})$`, 'i');
const EMPTY_VALUE = /^[\s\-–—?.,;:*·•()[\]{}]*$/;

/**
 * Whether an infobox key lays out or styles the box rather than stating a fact.
 *
 * @example isStylingKey('image_size') === true; isStylingKey('population_total') === false
 */
export function isStylingKey(key: string): boolean {
  return STYLING_KEYS.has(key) || STYLING_KEY_PATTERNS.some((pattern) => pattern.test(key));
}

/**
 * Whether a value is a file name (an image, a sound, a document), with or without its `File:` prefix.
 *
 * @example isFileValue('File:Berlin skyline.jpg') === true
 */
export function isFileValue(value: string): boolean {
  return FILE_VALUE.test(value.trim());
}

/**
 * Whether a value says nothing: empty, or only whitespace, dashes, question marks and punctuation.
 *
 * @example isEmptyValue(' – ') === true; isEmptyValue('0') === false
 */
export function isEmptyValue(value: string): boolean {
  return EMPTY_VALUE.test(value);
}

/**
 * Why a change is dropped before selection, or null when it is a candidate question.
 *
 * @example filterReason({ key: 'logo', new: 'Logo.svg' }) === 'styling_key'; filterReason({ key: 'mayor', new: 'Kai Wegner' }) === null
 */
export function filterReason(change: { key: string; new: string }): FilterReason | null {
  if (isStylingKey(change.key)) return 'styling_key';
  if (isEmptyValue(change.new)) return 'empty_value';
  if (isFileValue(change.new)) return 'file_value';
  return null;
}
