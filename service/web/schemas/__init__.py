"""The request schemas the REST API and the console share: a body and a form are checked alike."""
