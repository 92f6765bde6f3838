// Its own module, free of the error classes: the widget's first file sends a request with it.

/** What every request to the service carries: the session token, and JSON asked for. */
export const requestHeaders = (sessionToken: string) => ({
  authorization: `Bearer ${sessionToken}`,
  accept: 'application/json',
})
