"""`python -m ctxhub`: the same CLI as the `ctxhub` console script."""

from ctxhub.cli.entry import main

if __name__ == "__main__":
    main()
