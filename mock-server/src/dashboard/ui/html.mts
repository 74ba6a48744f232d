/** Preact with htm: components written as tagged templates, no JSX step (esbuild only bundles). */
import { h } from 'preact';
import htm from 'htm';

export const html = htm.bind(h);
