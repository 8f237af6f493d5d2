-- Mines: on_landed runs after each hop of a move, before the next.
function on_landed(ctx, event)
  if event.at == "d4" then
    ctx:remove_checker(event.at)      -- the mover is gone, so its move ends
  elseif event.at:sub(2) == "6" then
    ctx:end_move()                    -- the rest of the chain is not made
  end
end
