"""The console's pages, one module and blueprint each under /console."""
