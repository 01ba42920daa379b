"""`python -m ctxhub`: the same CLI as the `ctxhub` console script."""

from ctxhub.cli.main import main

if __name__ == "__main__":
    main()
