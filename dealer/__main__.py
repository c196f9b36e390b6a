from dealer.cli import main

main()
