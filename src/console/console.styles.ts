/** The console's look: a plain table on a wide screen, one card per payment on a phone (under 40rem). */
import { css } from 'lit';

export const consoleStyles = css`
  :host {
    display: block;
    max-width: 80rem;
    margin: 0 auto;
    padding: 1rem;
    color: #1b1f24;
  }
  header {
    display: flex;
    flex-wrap: wrap;
    gap: 0.75rem;
    align-items: center;
    justify-content: space-between;
  }
  h1 {
    font-size: 1.5rem;
    margin: 0;
  }
  h2 {
    font-size: 1.15rem;
    margin: 1.5rem 0 0.5rem;
  }
  button,
  input,
  select {
    font: inherit;
  }
  button {
    min-height: 2.5rem;
    padding: 0.4rem 0.9rem;
    border: 1px solid #1d4ed8;
    border-radius: 8px;
    background: #fff;
    color: #1d4ed8;
    cursor: pointer;
  }
  button.primary {
    background: #1d4ed8;
    color: #fff;
  }
  button:focus-visible,
  input:focus-visible,
  a:focus-visible {
    outline: 3px solid #f59e0b;
    outline-offset: 2px;
  }
  button[aria-disabled='true'] {
    opacity: 0.6;
    cursor: progress;
  }
  .tools,
  .mark {
    display: flex;
    flex-wrap: wrap;
    gap: 0.5rem;
    align-items: end;
    margin: 1rem 0;
  }
  .tools label,
  .mark label {
    display: block;
    font-size: 0.9rem;
    font-weight: 600;
  }
  .tools input,
  .mark input {
    min-width: 16rem;
    padding: 0.45rem;
    border: 1px solid #6b7280;
    border-radius: 8px;
  }
  .filters {
    display: flex;
    flex-wrap: wrap;
    gap: 0.4rem;
    padding: 0;
    margin: 0 0 1rem;
    list-style: none;
  }
  .filters button[aria-pressed='true'] {
    background: #1d4ed8;
    color: #fff;
  }
  /* Forced colors (Windows high contrast) drop the fill above, and with it the only sign of the chosen filter: it
     takes the system's selection colours instead. */
  @media (forced-colors: active) {
    .filters button[aria-pressed='true'] {
      forced-color-adjust: none;
      background: Highlight;
      color: HighlightText;
    }
  }
  .sr-only {
    position: absolute;
    width: 1px;
    height: 1px;
    overflow: hidden;
    clip-path: inset(50%);
    white-space: nowrap;
  }
  .count {
    display: inline-block;
    min-width: 1.5em;
    margin-left: 0.3rem;
    font-weight: 700;
  }
  table {
    width: 100%;
    border-collapse: collapse;
    background: #fff;
  }
  th,
  td {
    text-align: left;
    padding: 0.5rem;
    border-bottom: 1px solid #d0d5dc;
    vertical-align: top;
  }
  td.order {
    /* An order id is up to 128 characters, a word with no break in it (SHOP-заказ-..., Devanagari): it breaks
       anywhere rather than widen its column past the screen and push the outcome out of sight. */
    overflow-wrap: anywhere;
  }
  td.amount {
    white-space: nowrap;
  }
  .link {
    border: 0;
    padding: 0;
    min-height: 0;
    background: none;
    color: #1d4ed8;
    text-decoration: underline;
    text-align: left;
  }
  .badge {
    display: inline-block;
    padding: 0.1rem 0.5rem;
    border-radius: 999px;
    background: #e5e7eb;
    font-size: 0.9rem;
  }
  .badge.paid {
    background: #d1fae5;
    color: #065f46;
  }
  .badge.expired,
  .badge.failed,
  .badge.underpaid,
  .badge.superseded {
    background: #fee2e2;
    color: #991b1b;
  }
  .note {
    color: #9a3412;
    font-size: 0.9rem;
  }
  /* What an operator marked done (a refund, a contradiction resolved): no longer a warning. */
  .done {
    color: #065f46;
    font-size: 0.9rem;
  }
  .status {
    min-height: 1.5rem;
  }
  .error {
    color: #b42318;
  }
  dl {
    display: grid;
    grid-template-columns: max-content 1fr;
    gap: 0.3rem 1rem;
    margin: 0;
  }
  dt {
    font-weight: 600;
  }
  dd {
    margin: 0;
    overflow-wrap: anywhere;
  }
  ol,
  ul.plain {
    padding-left: 1.2rem;
    /* A hook's error may hold a long address with no break in it (https://shop.example/...?signature=...): it
       breaks rather than run past a phone's screen. */
    overflow-wrap: anywhere;
  }
  li {
    margin-bottom: 0.3rem;
  }
  time {
    color: #4b5563;
  }
  .actions {
    display: flex;
    flex-wrap: wrap;
    gap: 0.5rem;
    margin-top: 1rem;
  }
  @media (max-width: 40rem) {
    :host {
      padding: 0.6rem;
    }
    .tools input,
    .mark input {
      min-width: 0;
      width: 100%;
      /* The whole width with its padding and border, not that much more: past a phone's screen. */
      box-sizing: border-box;
    }
    .tools > div,
    .mark > div {
      flex: 1 1 100%;
    }
    thead {
      position: absolute;
      width: 1px;
      height: 1px;
      overflow: hidden;
      clip: rect(0 0 0 0);
    }
    table,
    tbody,
    tr,
    td {
      display: block;
    }
    tr {
      margin-bottom: 0.75rem;
      border: 1px solid #d0d5dc;
      border-radius: 10px;
      padding: 0.4rem;
    }
    td {
      border: 0;
      padding: 0.2rem 0.4rem;
    }
    td[data-label]:empty {
      display: none;
    }
    td[data-label]::before {
      content: attr(data-label) ': ';
      font-weight: 600;
    }
    dl {
      grid-template-columns: 1fr;
    }
  }
`;
