"""What the REST API and the console share below them both: the request's unit of work, the request
schemas, who may do what, and the answers both give alike."""
