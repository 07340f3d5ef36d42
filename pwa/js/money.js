// Money as the API says it: a currency code and a decimal string ("CHF 1.00"). The app never
// computes an amount; it shows the API's strings, a no-break space keeping code and amount on
// one line.
export const money = (currency, amount) => `${currency}\u00a0${amount}`;

/** An amount the API says is owed (or nets below zero) reads as more than nothing. */
export const isZero = (amount) => /^-?0\.00$/.test(amount);
export const isNegative = (amount) => amount.startsWith('-') && !isZero(amount);
