-- Jupiter (R9.5): the monolith covers d4 e4 d5 e5, that is its lower-left
-- square is d4.
function check(ctx, player)
  return ctx:monolith() == "d4"
end
